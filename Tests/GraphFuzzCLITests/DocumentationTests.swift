import Foundation
import GraphFuzzCLI
import Testing

@Suite("README, docs/ci.md and --help say what the command does (built executable)")
struct DocumentationTests {
    private func keys(of line: Substring) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return object.keys.sorted()
    }

    @Test("--help lists every key of the failure, summary and replay JSON events")
    func helpListsJSONKeys() throws {
        let help = try graphFuzz(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "JSON LINES").dropFirst().first?.components(separatedBy: "\n\n").first)
        // One entry per event: its name first, its keys after (wrapped lines continue the entry).
        var entries: [String: [Substring]] = [:]
        var current = ""
        for line in section.split(separator: "\n").dropFirst() {
            let words = line.split(separator: " ")
            if line.hasPrefix("  ") && !line.hasPrefix("           "), let first = words.first {
                current = String(first)
                entries[current] = Array(words.dropFirst())
            } else {
                entries[current, default: []] += words
            }
        }
        let run = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--json", "--no-save", "--in-process"])
        let replay = try graphFuzz(["replay", "--json", Package.corpus + "/" + (corpusFiles.first ?? "")])
        let lines = run.stdout.split(separator: "\n") + replay.stdout.split(separator: "\n")
        // A failure, a coverage event per queue rule (Q1–Q3), the summary, a replay.
        #expect(lines.count == 6)
        #expect(lines.filter { $0.contains(#""event":"coverage""#) }.count == 3)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = try #require(object["event"] as? String)
            let listed = try #require(entries[event], "--help lists no keys for \(event) events")
            for key in try keys(of: line) {
                #expect(listed.contains(Substring(key)), "--help does not list key '\(key)' of \(event) events")
            }
        }
    }

    @Test("the README's relate-before-insert example shows what the command prints")
    func readmeExample() throws {
        let readme = try String(contentsOfFile: Package.root + "/README.md", encoding: .utf8)
        let result = try graphFuzz(["--mutant", "relate-before-insert", "--seed", "1", "--no-save"])
        let printed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("FAILURE ") }
        let section = try #require(readme.components(separatedBy: "## Reading a report").dropFirst().first?
            .components(separatedBy: "- The first line names").first)
        let words = ["one", "two", "three", "four", "five"]
        #expect(printed.count <= words.count)
        #expect(section.contains("prints \(words[printed.count - 1]) failure"), "the README must say how many failures it prints (\(printed.count))")
        #expect(section.contains(String(printed[0])))
        for line in result.stdout.split(separator: "\n") where line.hasPrefix("graph ") {
            #expect(maskingTimings(section).contains(maskingTimings(String(line))), "summary row \(line)")
        }
    }

    @Test("every known issue in swift test output says it is expected")
    func knownIssuesNamed() throws {
        let manager = FileManager.default
        let tests = Package.root + "/Tests"
        var bare: [String] = []
        for path in manager.subpaths(atPath: tests) ?? [] where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: tests + "/" + path, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("withKnownIssue") && !line.contains("\"withKnownIssue") {
                if !line.contains("withKnownIssue(\"expected: ") { bare.append("\(path): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(bare.isEmpty, "known issues without an 'expected: …' comment read as failures: \(bare)")
        let readme = try String(contentsOfFile: Package.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("recorded a known issue"))
    }

    @Test("README, docs/ci.md and --help describe every exit code and what counts as a failure of the code under test")
    func exitCodes() throws {
        let help = try graphFuzz(["--help"]).stdout
        let readme = try String(contentsOfFile: Package.root + "/README.md", encoding: .utf8)
        let ci = try String(contentsOfFile: Package.root + "/docs/ci.md", encoding: .utf8)
        for (name, text) in [("--help", help), ("README.md", readme), ("docs/ci.md", ci)] {
            for code in ["0", "1", "2", "3", "130", "143"] {
                #expect(text.contains("| \(code) |") || text.contains("  \(code) ") || text.contains("| \(code) / ") || text.contains(" / \(code)"),
                        "\(name) does not describe exit code \(code)")
            }
            #expect(text.localizedCaseInsensitiveContains("infrastructure"), "\(name)")
            #expect(text.localizedCaseInsensitiveContains("failure of the code under test"), "\(name)")
        }
    }
}
