/// The white space of Foundation's `CharacterSet.whitespaces` and `.whitespacesAndNewlines`, and trimming by it as
/// `trimmingCharacters(in:)` does, scalar by scalar (FoundationEssentials has no `CharacterSet`).
package enum Whitespace {
    /// Space separators (Unicode category Zs), the tab and the zero width space (Zs in Foundation's older tables):
    /// `CharacterSet.whitespaces`.
    case spaces
    /// These, the other separators (Zl, Zp), U+000A–U+000D and U+0085: `CharacterSet.whitespacesAndNewlines`.
    case spacesAndNewlines

    /// Whether `scalar` is white space of this kind.
    package func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator: return true
        case .lineSeparator, .paragraphSeparator: return self == .spacesAndNewlines
        default: break
        }
        switch scalar.value {
        case 0x09, 0x200B: return true
        case 0x0A...0x0D, 0x85: return self == .spacesAndNewlines
        default: return false
        }
    }

    /// `text` without the white space at its start and end.
    package func trim(_ text: some StringProtocol) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !contains($0) }), let last = scalars.lastIndex(where: { !contains($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
