import FuzzDriver
import DeviceProfiles

/// libFuzzer entry: any text given as a settings file (`glasses-audiod --config`) ends in
/// its settings or a `YAMLTextError`, never a trap or a stack overflow (nesting is bounded
/// before the parser sees it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigYAML(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = start.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
    if let pairs = try? YAMLText.settings(text, name: "fuzz.yaml") {
        // What the loader hands on is a mapping's keys, each once.
        precondition(Set(pairs.map(\.key)).count <= pairs.count)
    }
    return 0
}

@_cdecl("FuzzConfigYAML_main")
public func fuzzConfigYAMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzConfigYAML)
}
