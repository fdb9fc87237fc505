import Foundation
import Testing

/// docs/guide.md's Swift blocks that no test runs as printed (GuideTests matches those) are compiled as printed, the
/// way an app that depends on the products would: each with the guide's machines (the first one, which it runs, and
/// the cart machines over commands, which show the style the shipped targets are written in), and the dependency
/// snippet as a package manifest.
@Suite("docs/guide.md's other Swift blocks compile")
struct GuideSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The guide's Swift blocks, and the marked blocks of the sources and tests (`// BEGIN GUIDE: NAME`).
    static func blocks() throws -> (guide: [String], marked: [String: String]) {
        let guide = try String(contentsOfFile: root + "/docs/guide.md", encoding: .utf8)
        let swift = guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        var marked: [String: String] = [:]
        for folder in ["Sources", "Tests"] {
            for path in (FileManager.default.subpaths(atPath: root + "/" + folder) ?? []).sorted() where path.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + folder + "/" + path, encoding: .utf8)
                for part in text.components(separatedBy: "// BEGIN GUIDE: ").dropFirst() {
                    let name = String(part.prefix { $0 != "\n" })
                    marked[name] = part.components(separatedBy: "\n// END GUIDE: \(name)")[0].drop { $0 != "\n" }.dropFirst().description
                }
            }
        }
        return (swift, marked)
    }

    /// The toolchain's PackageDescription module folder: `lib/swift/pm/ManifestAPI` beside the `swiftc` on the path.
    static func manifestAPI() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let bin = try #require(path.split(separator: ":").first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") })
        return URL(fileURLWithPath: String(bin)).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("lib/swift/pm/ManifestAPI").path
    }

    @Test("every Swift block of the guide is a marked example or compiles as printed")
    func everyBlockCompiles() throws {
        let (guide, marked) = try Self.blocks()
        let unmarked = guide.filter { !marked.values.contains($0) }
        let manifests = unmarked.filter { $0.hasPrefix("// Package.swift") }
        let snippets = unmarked.filter { !$0.hasPrefix("// Package.swift") }
        #expect(manifests.count == 1 && snippets.count == 2, "unmarked blocks: \(unmarked.map { $0.prefix(40) })")
        // The machines an app writes, compiled outside the package: closures, and commands in both forms.
        let machines = try ["first machine", "commands", "coded commands"].map { try #require(marked[$0]) }
        let body = snippets.enumerated().map { "struct Snippet\($0.offset) {\n\($0.element)\n}" }.joined(separator: "\n")
        let code = try PublicSurfaceTests.typecheck((machines + [body]).joined(separator: "\n"),
                                                    imports: "import GraphFuzzEngine\nimport GraphFuzzTesting\nimport Testing\n")
        #expect(code.status == 0, "\(code.diagnostics)")
        for manifest in manifests {
            let package = "import PackageDescription\nlet package = Package(name: \"App\",\n\(manifest)\n)"
            let checked = try PublicSurfaceTests.typecheck(package, imports: "",
                                                           extraArguments: ["-I", try Self.manifestAPI(), "-package-description-version", "6.0"])
            #expect(checked.status == 0, "\(checked.diagnostics)")
        }
    }
}
