/// FNV-1a over bytes: a hash that is the same in every run and on every machine (unlike
/// `hashValue`), for cache keys and seeds derived from text or audio.
public enum StableHash {
    public static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

extension String {
    /// FNV-1a of the UTF-8 bytes (``StableHash``).
    public var hashValueStable: UInt64 { StableHash.fnv1a(utf8) }
}
