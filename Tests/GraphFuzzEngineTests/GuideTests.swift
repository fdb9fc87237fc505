import Foundation
import Testing

/// docs/guide.md prints its examples as the tests compile and run them: every block between
/// `// BEGIN GUIDE: NAME` and `// END GUIDE: NAME` in a source or test file appears in the guide verbatim.
@Suite("docs/guide.md shows the examples the tests run")
struct GuideTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Each marked block of the source and test files: its name and its lines between the markers.
    static func blocks() throws -> [(name: String, text: String)] {
        var blocks: [(name: String, text: String)] = []
        let files = ["Sources", "Tests"].flatMap { folder in
            (FileManager.default.subpaths(atPath: root + "/" + folder) ?? []).sorted().map { root + "/" + folder + "/" + $0 }
        }
        for path in files where path.hasSuffix(".swift") {
            let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            var name: String?, body: [String] = []
            for line in lines {
                if line.hasPrefix("// BEGIN GUIDE: ") {
                    name = String(line.dropFirst("// BEGIN GUIDE: ".count))
                    body = []
                } else if let open = name, line == "// END GUIDE: \(open)" {
                    blocks.append((open, body.joined(separator: "\n")))
                    name = nil
                } else if name != nil {
                    body.append(line)
                }
            }
        }
        return blocks
    }

    @Test("every marked example is in the guide as the tests have it")
    func examplesMatch() throws {
        let guide = try String(contentsOfFile: Self.root + "/docs/guide.md", encoding: .utf8)
        let blocks = try Self.blocks()
        #expect(!blocks.isEmpty, "no `// BEGIN GUIDE:` block in Sources/ or Tests/")
        for block in blocks {
            #expect(guide.contains("```swift\n" + block.text + "\n```"), "docs/guide.md does not show the example '\(block.name)' as the tests have it")
        }
    }
}
