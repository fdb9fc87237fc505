extension Invariant where M.System: Sendable {
    /// An invariant that awaits: its check may call into actors to read their state (`await cache.downloads`),
    /// which a synchronous invariant cannot. It runs after every step whose verdict is a pass, as the others do,
    /// in a scheduled run of its own on the case's thread: no choices are drawn (jobs run in the order they are
    /// enqueued), so the check never changes the case or the interleaving of the step it follows, and the same
    /// case gives the same verdict.
    ///
    /// ```swift
    /// Invariant("I1", async: { model, shop in
    ///     let stock = await shop.stock
    ///     return stock == model.stock ? nil : "stock \(stock), expected \(model.stock)"
    /// })
    /// ```
    ///
    /// A check that does not finish — it waits for something no job will do, or its actors keep each other busy
    /// past the scheduler's job limit — fails under the rule as a `deadlock` or `livelock`. A check must keep its
    /// work in the case (no Dispatch queues or threads of its own): work that comes back from another thread is
    /// not waited for. A scheduled run costs what dozens of ordinary steps do: give the check a `when` where it
    /// decides nothing.
    ///
    /// - Parameters:
    ///   - rule: the rule the invariant decides, named by its failures and counted by coverage.
    ///   - when: the states of the model where the invariant is checked (default: all).
    ///   - check: nil while the invariant holds, else what broke.
    public init(_ rule: String, when applies: ((M.Model) -> Bool)? = nil,
                async check: @escaping @Sendable (M.Model, M.System) async -> String?) {
        self.rule = rule
        self.applies = applies
        self.check = { model, system in
            guard #available(macOS 15.0, *) else {
                return Failure(rule: rule, kind: .invariant, message: "asynchronous invariants need macOS 15 (task executors)")
            }
            let state = CaseThreadValue(model)
            let run = Scheduler(draw: Draw(replaying: ChoiceSequence([])), options: .init(outsideWait: .zero))
                .run { await check(state.value, system) }
            switch run.outcome {
            case .completed(let broken):
                return broken.map { Failure(rule: rule, kind: .invariant, message: $0) }
            case .deadlock(let waiting):
                return Failure(rule: rule, kind: .deadlock, message: "the invariant's check did not finish: nothing can run, and "
                               + waiting.joined(separator: "; ") + (run.uncontrolled.isEmpty ? "" : " (\(run.uncontrolled.joined(separator: "; ")))"))
            case .jobLimit(let jobs):
                return Failure(rule: rule, kind: .livelock, message: "the invariant's check ran \(jobs) jobs without finishing")
            }
        }
    }
}

/// A value handed to code the scheduler runs on the thread that made it, one job at a time: never shared
/// between threads, whether or not its type is `Sendable`.
struct CaseThreadValue<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
