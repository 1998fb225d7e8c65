import FuzzDriver
import Foundation
import Store

/// libFuzzer entry: the first byte picks the route (`PUT /api/settings/name|personality|
/// wake-word|voice`), the rest is its body. Any body ends in settings or a `SettingsRefusal`,
/// never a trap; settings that are accepted hold only what the rules allow, and encode to
/// JSON (what the store writes and `GET /api/settings` answers).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    let fields = SettingsChange.Field.allCases
    let field = fields[Int(start[0]) % fields.count]
    let body = Data(UnsafeBufferPointer(start: start + 1, count: count - 1))
    guard let settings = try? SettingsChange.apply(field, body: body, to: .defaults) else { return 0 }
    precondition((try? SettingsRules.printable(settings.name, field: "name")) != nil, "a name with a control character was accepted")
    precondition(SettingsRules.names.contains(settings.name.count))
    precondition(SettingsRules.personalities.contains(settings.personality))
    precondition(SettingsRules.keywordLength.contains(settings.wakeWord.keyword.count))
    precondition(settings.wakeWord.sensitivity.isFinite && (0...1).contains(settings.wakeWord.sensitivity))
    precondition(SettingsRules.rates.contains(settings.voice.rate))
    precondition(settings.voice.volume.isFinite && (0...1).contains(settings.voice.volume))
    let encoded = try! JSONEncoder().encode(settings)
    precondition(try! JSONDecoder().decode(AssistantSettings.self, from: encoded) == settings)
    return 0
}

@_cdecl("FuzzSettings_main")
public func fuzzSettingsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzSettings)
}
