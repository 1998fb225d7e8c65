import AudioCore
import Foundation
import TestKit
import Testing

@Suite("Ring buffer", .oneAtATime)
struct RingBufferTests {
    @Test("a producer thread and a consumer thread lose and duplicate nothing")
    func producerConsumer() async throws {
        let ring = RingBuffer<Int32>(capacity: 1000)
        let total: Int32 = 1_000_000
        let producer = Thread {
            var next: Int32 = 0
            var chunk = [Int32]()
            while next < total {
                chunk = (next..<min(total, next + 257)).map { $0 }
                var offset = 0
                while offset < chunk.count {
                    offset += chunk[offset...].withUnsafeBufferPointer { ring.write($0) }
                }
                next += Int32(chunk.count)
            }
        }
        producer.start()
        var expected: Int32 = 0
        var mismatches = 0
        var scratch = [Int32](repeating: 0, count: 173)
        while expected < total {
            let count = scratch.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for value in scratch[0..<count] {
                if value != expected { mismatches += 1 }
                expected = value + 1
            }
        }
        #expect(mismatches == 0)
        #expect(expected == total)
        #expect(ring.availableToRead == 0)
    }

    @Test("writes beyond capacity are refused, not overwritten")
    func capacity() {
        let ring = RingBuffer<Float>(capacity: 4)
        #expect(ring.write([1, 2, 3]) == 3)
        #expect(ring.write([4, 5, 6]) == 1)
        #expect(ring.read(maxCount: 10) == [1, 2, 3, 4])
        #expect(ring.write([7, 8]) == 2)
        #expect(ring.read(maxCount: 1) == [7])
        #expect(ring.read(maxCount: 5) == [8])
    }
}
