import GraphFuzzEngine
import MapperTarget
import Testing

/// The user's delete and save while an enrichment awaits its response (`userDelete`, `userSave`): drawn only as
/// the second branch of an enrichment's concurrent step, each one job; judged by linearizability as enrichment
/// pairs are. A delete or save that runs during the wait comes before the enrichment's mapping; one that runs after
/// it, after.
@Suite("mapper: the user's steps during an enrichment")
struct MapperUserStepTests {
    static let dune = #"works: [["Dune", [], false, nil, ["vol-A"]]], editions: [], authors: []"#

    /// `v1 = map(Dune, vol-A)`, optionally saved, then an enrichment of vol-A beside `user`; `schedule` nil runs the
    /// jobs in FIFO order, where the user's step runs while the enrichment awaits (its first job yields); `[0, 1, 1]`
    /// runs the enrichment's resumption and then its mapping before the user's step.
    static func steps(saving: Bool, user: String, schedule: String?) throws -> [TraceStep] {
        let lines = ["v1 = map(\(dune))"] + (saving ? ["save()"] : [])
            + ["concurrently(A: enrich(\(dune)), B: \(user)\(schedule.map { ", schedule: \($0)" } ?? ""))"]
        return try lines.map { try TraceStep(parsing: Substring($0)) }
    }

    static func outcome(_ mutant: String?, config: String, _ steps: [TraceStep]) throws -> Outcome {
        let config = try TraceStep(parsing: Substring(config))
        return try Target.mapper.machine(mutant: mutant).replay(config, steps).get().outcome
    }

    static let resolving = #"config(temporaryIDAfterSave: "resolves", registeredAfterForeignDelete: "stale", newModelLink: "autoInsert")"#
    static let unknown = #"config(temporaryIDAfterSave: "unknown", registeredAfterForeignDelete: "stale", newModelLink: "autoInsert")"#

    @Test("a delete during the wait: the enrichment makes a fresh work (M10); the object cache returns the deleted one")
    func deleteDuringTheWait() throws {
        for saving in [false, true] {
            let during = try Self.steps(saving: saving, user: "userDelete(work: v1, evict: false)", schedule: nil)
            let after = try Self.steps(saving: saving, user: "userDelete(work: v1, evict: false)", schedule: "[0, 1, 1]")
            #expect(try Self.outcome(nil, config: Self.resolving, during) == .pass)
            #expect(try Self.outcome(nil, config: Self.resolving, after) == .pass)
            let found = try Self.outcome("cache-stores-objects", config: Self.resolving, during).failure
            #expect(found?.kind == .linearizability, "saving \(saving): \(String(describing: found))")
            #expect(["M10", "M11"].contains(found?.rule), "saving \(saving): \(String(describing: found))")
            #expect(found?.message.contains("interleaving:") == true)
            // Mapped before the delete, the cached object is still the live work: nothing to find.
            let mapped = try Self.outcome("cache-stores-objects", config: Self.resolving, after)
            #expect(mapped == .pass, "\(mapped)")
        }
    }

    @Test("a save during the wait: the enrichment finds the saved work (M9); a cache of temporary identifiers inserts a duplicate")
    func saveDuringTheWait() throws {
        let during = try Self.steps(saving: false, user: "userSave()", schedule: nil)
        let after = try Self.steps(saving: false, user: "userSave()", schedule: "[0, 1, 1]")
        for steps in [during, after] { #expect(try Self.outcome(nil, config: Self.unknown, steps) == .pass) }
        let found = try Self.outcome("cache-keeps-temporary-ids", config: Self.unknown, during).failure
        #expect(found?.rule == "M9", "\(String(describing: found))")
        #expect(found?.kind == .linearizability, "\(String(describing: found))")
        let saved = try Self.outcome("cache-keeps-temporary-ids", config: Self.unknown, after)
        #expect(saved == .pass, "\(saved)")
    }

    @Test("the user's steps are drawn beside an enrichment only, never first or alone")
    func drawnBesideAnEnrichment() {
        let machine = Target.mapper.machine()
        var beside: Set<String> = []
        for seed in UInt64(1)...300 {
            for step in machine.generate(Draw(seed: seed), 30).dropFirst() {
                #expect(!["userDelete", "userSave"].contains(step.name), "seed \(seed): \(step)")
                guard step.name == "concurrently" else { continue }
                let branches = step.arguments.compactMap { argument -> TraceStep? in
                    if case .step(let branch) = argument.value { return branch }
                    return nil
                }
                #expect(branches.first?.name == "enrich", "seed \(seed): \(step)")
                if branches.count == 2 { beside.insert(branches[1].name) }
            }
        }
        #expect(beside == ["enrich", "userDelete", "userSave"])
    }
}
