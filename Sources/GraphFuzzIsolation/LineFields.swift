/// The worker protocol's lines read as UTF-8 bytes. Every separator the protocol writes (tab, space, `;`, `,`, `=`)
/// is one ASCII byte that never occurs inside a multi-byte character, so a split at that byte lands on a character
/// boundary and gives the parts `split(separator:)` on characters gives — without breaking the text into grapheme
/// clusters, which made reading a worker's shrunk failure (the whole case it consumed, its record) cost the parent
/// milliseconds before it could report it.
extension Substring {
    /// The parts between `separator` bytes, empty ones kept: `split(separator:omittingEmptySubsequences: false)`.
    func fields(_ separator: UInt8) -> [Substring] {
        var fields: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == separator {
                fields.append(Substring(utf8[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        fields.append(Substring(utf8[start..<utf8.endIndex]))
        return fields
    }

    /// The non-empty parts between `separator` bytes: `split(separator:)`.
    func parts(_ separator: UInt8) -> [Substring] {
        fields(separator).filter { !$0.isEmpty }
    }
}
