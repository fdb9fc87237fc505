/// The interleaving drawn as lanes: one column per task, one row per job, each cell the code the task ran in
/// that job — the function, the resumption point it resumed at (`#2`: after the function's second
/// suspension), and where it suspended next — with the actor the job ran on heading the row. A
/// check-then-act across an await reads down the columns: A's `increment(_:) #1 → #2` (read, then await),
/// B's `increment(_:) #1 → #2` before A's `increment(_:) #3` (the write). When several tasks ran in one
/// actor job, `(1)`, `(2)` give the order they left the actor in.
///
/// Which tasks ran in a job comes from the tasks' resume addresses (`SchedulerCore.noteProgress`): a task job
/// names its own task; an actor's job (which runs every task queued on the actor, back to back) names each
/// task that suspended elsewhere during it. A task that returned inside an actor's job, or suspended again
/// where it had resumed, is not seen there. Functions are named from the program's symbols (`Symbolizer`);
/// without them (a stripped binary) a cell says where the task ran and nothing more. The runtime's job that
/// queues a task again after its `Task.yield` is written in that task's lane.
extension ScheduleRenderer {
    /// Widest a column grows before its cells are cut (with `…`).
    static let laneWidth = 72

    /// What ran in each step (index: step number): the tasks whose resume address moved, and the task whose
    /// own job ran, from where it last stood, when its address did not move.
    var ranBySteps: [[Ran]] {
        var bySteps: [[Ran]] = Array(repeating: [], count: record.steps.count + 1)
        var resume = record.firstResume
        var moved = record.ran[...]
        for (offset, step) in record.steps.enumerated() {
            let number = offset + 1
            while let next = moved.first, next.step == number {
                bySteps[number].append(next)
                moved = moved.dropFirst()
            }
            let task = step.job.task
            if task > 0 && task <= resume.count && !bySteps[number].contains(where: { $0.task == task }) {
                bySteps[number].append(Ran(step: number, task: task, from: resume[task - 1], to: 0))
            }
            for ran in bySteps[number] where ran.to != 0 { resume[ran.task - 1] = ran.to }
        }
        return bySteps
    }

    var lanes: [String] {
        let ranBySteps = self.ranBySteps
        var notesBySteps: [[String]] = Array(repeating: [], count: record.steps.count + 1)
        for note in record.notes where note.step < notesBySteps.count { notesBySteps[note.step].append(note.text) }
        for handoff in record.handoffs where handoff.step < notesBySteps.count { notesBySteps[handoff.step].append(self.handoff(handoff)) }

        // A lane per task that ran code of its own or has a label (a branch): not the runtime's tasks (a sleep's
        // timer task), each named after its label.
        let ran = ranBySteps.joined()
        var lanes: [Int] = []
        for event in ran where !lanes.contains(event.task) {
            let own = ran.contains { $0.task == event.task && [$0.from, $0.to].contains { Symbolizer.function(at: $0).map { !$0.isRuntime } ?? false } }
            if own || record.label(of: event.task) != nil { lanes.append(event.task) }
        }
        lanes.sort()
        let column = Dictionary(uniqueKeysWithValues: lanes.enumerated().map { ($1, $0) })

        var rows: [(prefix: String, cells: [String], rest: String)] = []
        for (offset, step) in record.steps.enumerated() {
            let number = offset + 1
            let actor = step.job.task == 0 && step.job.owner < 0 ? record.actorNames[-step.job.owner - 1] : nil
            var cells = Array(repeating: "", count: lanes.count)
            let shown = ranBySteps[number].filter { column[$0.task] != nil }
            let order = shown.count > 1 ? self.order(shown.map(\.task), leaving: number) : [:]
            for ran in shown {
                cells[column[ran.task]!] = (order[ran.task].map { "(\($0)) " } ?? "") + cell(ran, onActor: actor)
            }
            var rest: [String] = []
            for note in notesBySteps[number] {
                if let index = lanes.firstIndex(where: { note.hasPrefix(label($0) + " ") }) {
                    let mark = String(note.dropFirst(label(lanes[index]).count + 1))
                    cells[index] = mark == "started" ? mark + (cells[index].isEmpty ? "" : " " + cells[index])
                        : cells[index] + (cells[index].isEmpty ? "" : "; ") + mark
                } else {
                    rest.append(note)
                }
            }
            if cells.allSatisfy(\.isEmpty) && rest.isEmpty {
                // A runtime job that ran none of the case's code: a `Task.yield`'s resumption goes in the lane of the
                // task it puts back in the queue; anything else is named after the lanes.
                if step.job.task == 0, step.job.kind == JobInspection.yieldResumption, let index = column[step.job.owner] {
                    cells[index] = "queued again after its yield"
                } else {
                    rest.append(name(step.job))
                }
            }
            rows.append(("#\(number) " + place(step.job, actor: actor), cells, rest.joined(separator: "; ")))
        }
        let prefixWidth = rows.map(\.prefix.count).max() ?? 0
        let widths = lanes.indices.map { index in
            min(Self.laneWidth, max(label(lanes[index]).count, rows.map { $0.cells[index].count }.max() ?? 0))
        }
        func pad(_ text: String, _ width: Int) -> String {
            text.count > width ? String(text.prefix(width - 1)) + "…" : text + String(repeating: " ", count: width - text.count)
        }
        let header = pad("", prefixWidth) + " │ " + lanes.indices.map { pad(label(lanes[$0]), widths[$0]) }.joined(separator: " │ ")
        return [header.trimmingTrailingSpaces] + rows.map { row in
            let line = pad(row.prefix, prefixWidth) + " │ " + lanes.indices.map { pad(row.cells[$0], widths[$0]) }.joined(separator: " │ ")
            return (row.rest.isEmpty ? line : line + " │ " + row.rest).trimmingTrailingSpaces
        }
    }

    /// The order (1, 2, …) in which `tasks`, which all ran in the actor job of step `step`, ran there: the
    /// order they left it, read from what the step enqueued — a task's own job names its task; a job that
    /// names none (an idle actor scheduled by a task hopping onto it) goes to the tasks not named otherwise, in
    /// task order. What a task did without leaving (it returned inside the job) comes last.
    private func order(_ tasks: [Int], leaving step: Int) -> [Int: Int] {
        var order: [Int: Int] = [:]
        var unnamed: [Int] = []
        var position = 0
        for event in record.queued where event.step == step {
            position += 1
            if tasks.contains(event.job.task) && order[event.job.task] == nil {
                order[event.job.task] = position
            } else {
                unnamed.append(position)
            }
        }
        for task in tasks.sorted() where order[task] == nil {
            order[task] = unnamed.isEmpty ? { position += 1; return position }() : unnamed.removeFirst()
        }
        let ranks = order.sorted { $0.value < $1.value }.enumerated().map { ($1.key, $0 + 1) }
        return Dictionary(uniqueKeysWithValues: ranks)
    }

    /// A lane's title: the branch label (`A`), `root`, or `task 5`.
    private func label(_ task: Int) -> String {
        record.label(of: task) ?? (task == 1 && !record.branchesOnly ? "root" : "task \(task)")
    }

    /// Where a step's job ran: an actor (`ReentrantCounter#1`), the main actor, a timer, another thread; empty
    /// for a task's own job.
    private func place(_ job: JobRecord, actor: String?) -> String {
        if let actor { return actor }
        if job.external { return "from another thread" }
        switch job.place {
        case .mainActor: return "MainActor"
        case .timer: return "timer \(job.delay / VirtualClock.resolution) ms"
        case .caseExecutor, .global: return job.task == 0 ? "resumption" : ""
        }
    }

    /// `increment(_:) #1 → Ledger.write(_:)`: the code the task resumed (its function and resumption point,
    /// the type left out when the job is that type's actor) and where it suspended next.
    private func cell(_ ran: Ran, onActor actor: String?) -> String {
        let from = Symbolizer.function(at: ran.from)
        let typeOfActor = actor.map { String($0.prefix { $0 != "#" }) + "." }
        func describe(_ function: Symbolizer.Function) -> String {
            if function.isHarness { return "branch" }
            var name = function.name
            if function.isRuntime, let open = name.firstIndex(of: "(") { name = String(name[..<open]).replacing("._", with: ".") }
            if let typeOfActor, name.hasPrefix(typeOfActor) { name.removeFirst(typeOfActor.count) }
            return function.resumePoint == 0 ? name : "\(name) #\(function.resumePoint)"
        }
        var text = from.map(describe) ?? ""
        if ran.to != 0, let to = Symbolizer.function(at: ran.to) {
            let next = to.isHarness ? "returns" : to.name == from?.name && to.resumePoint > 0 ? "#\(to.resumePoint)" : describe(to)
            text += (text.isEmpty ? "→ " : " → ") + next
        }
        return text
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
