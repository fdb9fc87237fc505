import Foundation
import GraphFuzzEngine
import Testing

/// The harness links FoundationEssentials only; where it needs what only full Foundation has, a stand-in of its own
/// does the same. Each is compared here with the Foundation API it stands in for, on every input of a small alphabet
/// (or every Unicode scalar).
@Suite("stand-ins for full Foundation give Foundation's answers")
struct FoundationStandInTests {
    /// Every string of up to `length` characters of `alphabet`.
    static func strings(of alphabet: [String], upTo length: Int) -> [String] {
        var all = [""], last = [""]
        for _ in 0..<length {
            last = last.flatMap { prefix in alphabet.map { prefix + $0 } }
            all += last
        }
        return all
    }

    /// Paths of "/", ".", "a", "~" and "é" (precomposed and not) without a run of slashes, and a few with runs.
    /// (swift-corelibs-foundation's `NSString` makes a run one slash with an index that goes stale, so it traps on
    /// some paths with runs, "///.//" and "a//é", and leaves a later run whole in others; `FileIO` makes every run one.)
    static let paths = strings(of: ["/", ".", "a", "~", "é", "e\u{301}"], upTo: 5).filter { !$0.contains("//") }
        + ["a//b", "//a", "a//b/c.d", "é//a", "a//éb", "a///é", "//ab/é", "a//.b"]

    @Test("FileIO's path arithmetic is NSString's: lastPathComponent, deletingPathExtension, appendingPathComponent")
    func paths() {
        for path in Self.paths {
            #expect(FileIO.lastComponent(of: path) == (path as NSString).lastPathComponent, "\(Array(path.unicodeScalars))")
            #expect(FileIO.deletingExtension(of: path) == (path as NSString).deletingPathExtension, "\(Array(path.unicodeScalars))")
        }
        let names = Self.strings(of: ["/", ".", "a", "é"], upTo: 2)
        for folder in Self.strings(of: ["/", ".", "a", "~", "é"], upTo: 3) {
            for name in names {
                #expect(FileIO.path(folder, appending: name) == (folder as NSString).appendingPathComponent(name), "\(folder) + \(name)")
            }
        }
        #expect(FileIO.lastComponent(of: "///.//") == ".")
        #expect(FileIO.deletingExtension(of: "a///b//c.d") == "a/b/c")
    }

    @Test("Whitespace holds CharacterSet.whitespaces and .whitespacesAndNewlines, every scalar, and trims as trimmingCharacters(in:)")
    func whitespace() {
        for value in 0...0x10FFFF as ClosedRange<UInt32> {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Whitespace.spaces.contains(scalar) != CharacterSet.whitespaces.contains(scalar) {
                Issue.record("U+\(String(value, radix: 16)) in .whitespaces: \(CharacterSet.whitespaces.contains(scalar))")
            }
            if Whitespace.spacesAndNewlines.contains(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar) {
                Issue.record("U+\(String(value, radix: 16)) in .whitespacesAndNewlines: \(CharacterSet.whitespacesAndNewlines.contains(scalar))")
            }
        }
        for text in Self.strings(of: ["a", " ", "\t", "\n", "\r\n", "\u{301}", "\u{A0}", "\u{2028}"], upTo: 4) {
            #expect(Whitespace.spaces.trim(text) == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
            #expect(Whitespace.spacesAndNewlines.trim(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
            #expect(Whitespace.spaces.trim(text.dropFirst()) == text.dropFirst().trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("A corpus identity's characters are CharacterSet.alphanumerics' ASCII ones and the dash")
    func identityCharacters() {
        for value in 0..<0x80 as Range<UInt32> {
            let scalar = Unicode.Scalar(value)!
            let expected = CharacterSet.alphanumerics.contains(scalar) || scalar == "-"
            #expect(CorpusIdentity.isIdentifier(String(repeating: String(scalar), count: 8)) == expected, "U+\(String(value, radix: 16))")
        }
        #expect(!CorpusIdentity.isIdentifier("abcdefgé"))
    }

    @Test("The temporary directory is NSTemporaryDirectory()")
    func temporaryDirectory() {
        #expect(ScratchFolder.temporaryDirectory == NSTemporaryDirectory())
    }

    /// File operations that fail, each in its own way, in a scratch folder, with the `errno` each fails with: a missing
    /// file, a folder read as a file, a file listed as a folder, a write into a missing folder or under a file, a name
    /// too long, a missing file removed.
    static func failures(in folder: String) -> [(error: any Error, errno: Int32)] {
        let file = folder + "/file"
        _ = FileManager.default.createFile(atPath: file, contents: Data([1]))
        let attempts: [(Int32, () throws -> Void)] = [
            (ENOENT, { _ = try Data(contentsOf: URL(fileURLWithPath: folder + "/missing")) }),
            (EISDIR, { _ = try Data(contentsOf: URL(fileURLWithPath: folder)) }),
            (ENOTDIR, { _ = try FileManager.default.contentsOfDirectory(atPath: file) }),
            (ENOENT, { _ = try FileManager.default.contentsOfDirectory(atPath: folder + "/missing") }),
            (ENOENT, { try Data([1]).write(to: URL(fileURLWithPath: folder + "/missing/seed"), options: .atomic) }),
            (ENAMETOOLONG, { _ = try String(contentsOfFile: folder + "/" + String(repeating: "n", count: 300), encoding: .utf8) }),
            (ENOENT, { try FileManager.default.removeItem(atPath: folder + "/missing") }),
        ]
        return attempts.compactMap { code, attempt in
            do { try attempt() } catch { return (error, code) }
            return nil
        }
    }

    /// `FileIO.reason(of:)` gives the system's reason of the call that failed, which a file operation's `CocoaError`
    /// holds. (Read through `NSError` with full Foundation on Linux, the underlying error did not come out as a POSIX
    /// one, and the reason was `localizedDescription`: "The operation could not be completed. The file doesn’t
    /// exist.", "… (NSCocoaErrorDomain error 256.)".)
    @Test("FileIO.reason(of:) is the system's reason of a failed file operation; HarnessFault.reason reads it as through NSError")
    func errorReasons() throws {
        let folder = try ScratchFolder.make(for: "stand-ins")
        defer { ScratchFolder.remove(folder) }
        let failures = Self.failures(in: folder)
        #expect(failures.count == 7)
        for (error, code) in failures {
            #expect(FileIO.reason(of: error) == FileIO.reason(code), "\(error)")
            #expect(HarnessFault.reason(error) == Self.bridgedHarnessReason(error), "\(error)")
        }
        #expect(FileIO.reason(of: POSIXError(.ENOSPC)) == FileIO.reason(ENOSPC))
        #expect(FileIO.reason(of: CocoaError(.fileReadUnknown)) == (CocoaError(.fileReadUnknown) as NSError).localizedDescription)
        for error in [POSIXError(.ENOSPC), CocoaError(.fileWriteUnknown)] as [any Error] {
            #expect(HarnessFault.reason(error) == Self.bridgedHarnessReason(error), "\(error)")
        }
    }

    /// `HarnessFault.reason` as it read errors through `NSError`.
    static func bridgedHarnessReason(_ error: any Error) -> String {
        var current = error
        while true {
            if let cocoa = current as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? any Error {
                current = underlying
            } else if let underlying = (current as NSError).userInfo[NSUnderlyingErrorKey] as? any Error {
                current = underlying
            } else {
                break
            }
        }
        let code: Int32?
        if let posix = current as? POSIXError { code = posix.code.rawValue } else {
            let ns = current as NSError
            code = ns.domain == NSPOSIXErrorDomain ? Int32(ns.code) : nil
        }
        guard let code else { return "\(current)" }
        return "\(String(cString: strerror(code))) (errno \(code))"
    }
}
