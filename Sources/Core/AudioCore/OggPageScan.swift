import Foundation

/// Walks an Ogg file's pages by their headers (no decoding, memory bounded: bodies are
/// skipped) to find one that the file's end cuts through. opusfile stops quietly at the last
/// whole page, so without this a file cut mid-page reads as complete.
enum OggPageScan {
    struct CutPage: Equatable {
        /// Where the cut page starts, its length by its header (at least the header's), and
        /// the bytes of it present.
        var offset: Int
        var expected: Int
        var present: Int
    }

    /// The page the end of the file at `path` cuts, or `nil` when the file ends on a page
    /// boundary (or is not a sequence of Ogg pages, which the decoder reports itself).
    static func cutPage(_ path: String) -> CutPage? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var offset = 0
        var header = [UInt8](repeating: 0, count: 27 + 255)
        while offset < size {
            let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 27, off_t(offset)) }
            guard got >= 0 else { return nil }
            if got < 27 { return CutPage(offset: offset, expected: 27, present: got) }
            guard header[0..<4].elementsEqual("OggS".utf8) else { return nil }
            let segments = Int(header[26])
            let table = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + 27, segments, off_t(offset + 27)) }
            guard table >= 0 else { return nil }
            if table < segments { return CutPage(offset: offset, expected: 27 + segments, present: 27 + table) }
            let length = 27 + segments + header[27..<27 + segments].reduce(0) { $0 + Int($1) }
            if offset + length > size { return CutPage(offset: offset, expected: length, present: size - offset) }
            offset += length
        }
        return nil
    }
}
