import CLibFuzzer
import Foundation
import GraphFuzzEngine

#if GRAPHFUZZ_LIBFUZZER
/// libFuzzer's callbacks are C function pointers without a context argument, so the session they
/// use lives here: set once in `libFuzzerMain` before libFuzzer starts, read-only afterwards.
nonisolated(unsafe) private var session: FuzzSession!

/// The program's entry point in the libFuzzer build. SwiftPM links an executable with
/// `--defsym main=graph_fuzz_libfuzzer_main`, so this replaces libFuzzer's own `main` (whose
/// absence of a Swift `main` breaks the link otherwise: SwiftPM #4522) and runs libFuzzer's driver.
@_cdecl("graph_fuzz_libfuzzer_main")
public func libFuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    let arguments = (0..<Int(argc)).map { argv[$0].map { String(cString: $0) } ?? "" }
    if let code = exportSeedsIfAsked(arguments: arguments) { return code }
    do throws(FuzzSelectionError) { session = try FuzzSession.make(arguments: arguments) } catch {
        log(error.message)
        return 2
    }
    if let code = randomSearchIfAsked(session, arguments: arguments) { return code }
    log("libFuzzer: \(session.banner)")
    var count = argc
    var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &vector, LLVMFuzzerTestOneInput)
}

/// libFuzzer's test function: runs the case the bytes make; a failure traps, so libFuzzer keeps
/// the input as a crash file (with `SWIFT_BACKTRACE=enable=no`, or Swift's backtracer gets the
/// trap first). A rejected case (its assumptions not met) or a harness fault returns -1: not added
/// to the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch session.test(bytes) {
    case .pass: return 0
    case .rejected: return -1
    case .fail(let failure): fatalError("graph-fuzz-libfuzzer: \(session.harness.describe(failure))")
    case .harnessFault(let fault):
        // Not a crash of the code under test: the harness could not do its work. The input is not kept.
        log("harness fault (not a failure of the code under test): \(fault)")
        return -1
    }
}

/// libFuzzer's mutation hook. With `--mutator=steps`, half the mutations delete, duplicate or swap
/// whole steps of the decoded case (`StepMutator`); the rest, and every mutation with
/// `--mutator=bytes` (the default), are libFuzzer's own.
@_cdecl("LLVMFuzzerCustomMutator")
public func LLVMFuzzerCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data, session.stepMutations, seed & 1 == 1 else { return LLVMFuzzerMutate(data, size, maxSize) }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let (mutated, _) = session.mutator.mutate(bytes, seed: UInt64(seed >> 1)), mutated != bytes else {
        return LLVMFuzzerMutate(data, size, maxSize)
    }
    let count = min(mutated.count, maxSize)
    mutated.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: count) }
    return count
}

#else
/// The plain build (no libFuzzer): replays inputs (crash files, seed corpora) through the same
/// test function, and runs `--random-search`.
@main
enum StandaloneMain {
    static func main() {
        let arguments = CommandLine.arguments
        if let code = exportSeedsIfAsked(arguments: arguments) { exit(code) }
        let session: FuzzSession
        do throws(FuzzSelectionError) { session = try FuzzSession.make(arguments: arguments) } catch {
            log(error.message)
            exit(2)
        }
        if let code = randomSearchIfAsked(session, arguments: arguments) { exit(code) }
        let files = arguments.dropFirst().filter { !$0.hasPrefix("-") }
        guard !files.isEmpty else {
            log("""
                this build has no libFuzzer; it replays input files (or runs --random-search=SECONDS).
                Build the fuzzer with: swift build -c release --product graph-fuzz-libfuzzer --scratch-path .build/libfuzzer \\
                  -Xswiftc -sanitize=fuzzer -Xswiftc -DGRAPHFUZZ_LIBFUZZER
                """)
            exit(2)
        }
        var failed = false
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                log("\(file): cannot read the file")
                exit(2)
            }
            let outcome = session.test(Array(data))
            if let fault = outcome.harnessFault {
                log("\(file): harness fault (not a failure of the code under test): \(fault)")
                exit(3)
            }
            if outcome.failure != nil { failed = true } else { log("\(file): \(outcome == .rejected ? "rejected" : "pass")") }
        }
        exit(failed ? 1 : 0)
    }
}
#endif
