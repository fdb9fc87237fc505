#if !GRAPHFUZZ_NO_PROCESSES
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many worker processes a run can really have: no more than the machine has cores, and no
/// more than its open-file limit leaves room for (each worker holds three descriptors in the parent,
/// and one starting needs five).
package struct WorkerBudget: Equatable {
    /// The workers the run will start.
    package var jobs: Int
    /// Why fewer than asked for, for a note on standard error (nil when not capped).
    package var note: String?

    package init(jobs: Int, note: String?) {
        self.jobs = jobs
        self.note = note
    }

    /// Descriptors each running worker keeps open in the parent, and the extra ones while one starts.
    static let descriptorsPerWorker = 3
    static let descriptorsToStart = 5

    /// `requested` workers (nil: one per core) on a machine with `cores` cores, `openFileLimit`
    /// (the soft RLIMIT_NOFILE) and `openFiles` descriptors already in use.
    package static func plan(requested: Int?, cores: Int, openFileLimit: Int, openFiles: Int) throws(WorkerError) -> WorkerBudget {
        let cores = Swift.max(1, cores)
        var jobs = requested ?? cores
        var notes: [String] = []
        if jobs > cores {
            notes.append("--jobs \(jobs): capped at \(cores), the cores of this machine (more workers only share them)")
            jobs = cores
        }
        // Besides the `jobs` search workers, one more (shrinking or re-running a suspect case)
        // may be starting; a start briefly needs more descriptors, and reading files a few.
        let fit = (openFileLimit - openFiles - descriptorsToStart - 2) / descriptorsPerWorker
        guard fit >= 1 else {
            throw WorkerError(.usage, "too many open files: the limit is \(openFileLimit) open files and \(openFiles) are in use, "
                + "too few for even one worker process; raise the limit (for example `ulimit -n 1024`) or run with --in-process")
        }
        if jobs > fit {
            notes.append("--jobs \(jobs): capped at \(fit) by the open-file limit of \(openFileLimit) (raise it with `ulimit -n 1024` for more)")
            jobs = fit
        }
        return WorkerBudget(jobs: jobs, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// The plan for this process and machine.
    package static func current(requested: Int?) throws(WorkerError) -> WorkerBudget {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        let openFileLimit = getrlimit(resource, &limit) == 0 && limit.rlim_cur < rlim_t(Int32.max)
            ? Int(limit.rlim_cur) : Int(Int32.max)
        return try plan(requested: requested, cores: ProcessInfo.processInfo.activeProcessorCount,
                        openFileLimit: openFileLimit, openFiles: openDescriptorCount())
    }

    /// Descriptors open in this process (counted in /dev/fd; a guess of 16 where that fails).
    static func openDescriptorCount() -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd") else { return 16 }
        return names.count
    }
}
#endif
