import FuzzDriver
import DeviceProfiles

/// libFuzzer entry: any text given to the profile parser ends in a profile or a
/// `ProfileLoadError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = start.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
    _ = try? ProfileParser.parse(text, file: "fuzz.yaml")
    return 0
}

@_cdecl("FuzzProfile_main")
public func fuzzProfileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzProfile)
}
