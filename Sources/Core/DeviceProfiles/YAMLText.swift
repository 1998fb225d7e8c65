import Foundation
internal import Yams

/// YAML text made safe to hand to the parser: read only from a regular file of bounded size
/// (a FIFO would block, `/dev/zero` never ends), and nested no deeper than ``depthLimit``
/// (libyaml's composer recurses once per level: about 5,000 nested brackets overflow the
/// stack). Every YAML the binaries read (profiles, `glasses-audiod --config`) comes through here.
public enum YAMLText {
    /// Far above any profile or configuration file (they nest 2–4 levels).
    public static let depthLimit = 64
    /// Largest file read, in bytes.
    public static let sizeLimit = 1 << 20

    /// The text of `path`; throws a sentence saying what is wrong with the file.
    public static func read(_ path: String) throws(YAMLTextError) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw YAMLTextError("cannot read \(path): \(String(cString: strerror(errno)))") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw YAMLTextError("\(path) is a folder, not a YAML file: give the file inside it")
        case S_IFIFO: throw YAMLTextError("\(path) is a FIFO (named pipe), not a YAML file: give a regular file")
        case S_IFCHR, S_IFBLK: throw YAMLTextError("\(path) is a device, not a YAML file: give a regular file")
        default: throw YAMLTextError("\(path) is not a regular file: give a YAML file")
        }
        guard info.st_size <= sizeLimit else {
            throw YAMLTextError("\(path) is \(info.st_size) bytes, over the \(sizeLimit) a YAML settings file may have")
        }
        guard access(path, R_OK) == 0 else { throw YAMLTextError("cannot read \(path): \(String(cString: strerror(errno)))") }
        guard let data = FileManager.default.contents(atPath: path) else { throw YAMLTextError("cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw YAMLTextError("\(path) is not UTF-8 text") }
        try checkDepth(text, name: path)
        return text
    }

    /// A settings file's `key: value` lines, in file order: `text` must be a YAML mapping whose
    /// keys are text; a value that is a list or a mapping comes back as `nil` (for the caller to
    /// refuse by its key). Empty text is no settings.
    public static func settings(_ text: String, name: String) throws(YAMLTextError) -> [(key: String, value: String?)] {
        try checkDepth(text, name: name)
        let node: Node?
        // `.basic`: no implicit tags (no ICU regex per scalar); only the scalars' text is read.
        do { node = try Yams.compose(yaml: text, .basic) } catch { throw YAMLTextError("\(name) is not valid YAML: \(error)") }
        guard let node else { return [] }
        guard let mapping = node.mapping else {
            throw YAMLTextError("\(name) must be a mapping of settings (key: value), e.g. 'http-port: 8742'")
        }
        var pairs: [(key: String, value: String?)] = []
        for (key, value) in mapping {
            guard let text = key.scalar?.string else { throw YAMLTextError("\(name): a key that is not text") }
            pairs.append((text, value.scalar?.string))
        }
        return pairs
    }

    /// Throws when `text` may nest deeper than ``depthLimit``.
    public static func checkDepth(_ text: String, name: String) throws(YAMLTextError) {
        let depth = depth(of: text)
        guard depth <= depthLimit else {
            throw YAMLTextError("\(name) nests \(depth) levels deep, over the \(depthLimit) allowed: settings files nest a few levels")
        }
    }

    /// How deep `text` nests, an upper bound found without parsing: block levels by
    /// indentation, compact `- - x` entries, and open flow brackets (outside quotes, comments
    /// and block scalars).
    public static func depth(of text: String) -> Int {
        let space = UInt8(ascii: " "), hash = UInt8(ascii: "#"), tab = UInt8(ascii: "\t")
        var deepest = 0
        var flow = 0
        var indents: [Int] = []
        var quote: UInt8?
        var blockScalarIndent: Int?
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let bytes = Array(line)
            var index = 0
            while index < bytes.count, bytes[index] == space { index += 1 }
            let indent = index
            let blank = index == bytes.count || bytes[index] == hash || bytes[index] == UInt8(ascii: "\r")
            if let base = blockScalarIndent {
                if blank || indent > base { continue }
                blockScalarIndent = nil
            }
            if blank, quote == nil { continue }
            var compact = 0
            if quote == nil, flow == 0 {
                while let top = indents.last, top > indent { indents.removeLast() }
                if indents.last != indent { indents.append(indent) }
                while index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "?"),
                    index + 1 == bytes.count || bytes[index + 1] == space || bytes[index + 1] == tab
                {
                    compact += 1
                    index += 1
                    while index < bytes.count, bytes[index] == space || bytes[index] == tab { index += 1 }
                }
            }
            var content = index
            var previous: UInt8 = space
            scan: while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if open == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == open { quote = nil }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        if [space, tab, UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "-")]
                            .contains(previous) || index == content
                        {
                            quote = byte
                        }
                    case hash where previous == space || previous == tab:
                        break scan
                    case UInt8(ascii: "["), UInt8(ascii: "{"):
                        flow += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        flow = max(0, flow - 1)
                    default:
                        break
                    }
                    deepest = max(deepest, indents.count + compact + flow)
                }
                previous = byte
                index += 1
            }
            deepest = max(deepest, indents.count + compact + flow)
            content = index
            if quote == nil, flow == 0, let last = bytes[..<content].split(whereSeparator: { $0 == space || $0 == tab }).last,
                let first = last.first, first == UInt8(ascii: "|") || first == UInt8(ascii: ">"),
                last.dropFirst().allSatisfy({ $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            {
                blockScalarIndent = indent
            }
        }
        return deepest
    }
}

/// A YAML file that cannot be read as settings, in one sentence.
public struct YAMLTextError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
