import FuzzDriver
import AudioCore
import Foundation

/// libFuzzer entry: any bytes given to the WAV readers (whole, recovering, and in chunks)
/// end in audio or an `AudioFileError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    _ = try? WAVFile.decode(data)
    FuzzFile.withFile(data, suffix: ".wav") { path in
        _ = try? WAVFile.readRecovering(path)
        if let chunks = try? AudioFileChunks(path: path, framesPerChunk: 97) {
            while (try? chunks.next()) != nil {}
        }
    }
    return 0
}

/// One reusable file per process for readers that take a path.
enum FuzzFile {
    static func withFile(_ data: Data, suffix: String, _ body: (String) -> Void) {
        let path = NSTemporaryDirectory() + "glasses-audio-fuzz-\(getpid())\(suffix)"
        guard (try? data.write(to: URL(fileURLWithPath: path))) != nil else { return }
        body(path)
    }
}

@_cdecl("FuzzWAV_main")
public func fuzzWAVMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzWAV)
}
