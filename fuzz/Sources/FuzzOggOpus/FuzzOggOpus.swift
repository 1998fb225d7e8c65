import FuzzDriver
import AudioCore
import Foundation

/// libFuzzer entry: any bytes given to the Ogg Opus readers (whole, recovering, and in
/// chunks) end in audio or an `AudioFileError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOggOpus(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let path = NSTemporaryDirectory() + "glasses-audio-fuzz-\(getpid()).opus"
    guard (try? data.write(to: URL(fileURLWithPath: path))) != nil else { return 0 }
    _ = try? OggOpusFile.readRecovering(path)
    if let chunks = try? AudioFileChunks(path: path, framesPerChunk: 97) {
        while (try? chunks.next()) != nil {}
    }
    return 0
}

@_cdecl("FuzzOggOpus_main")
public func fuzzOggOpusMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOggOpus)
}
