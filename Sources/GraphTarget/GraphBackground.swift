import BooksSpec
import BooksTracker
import GraphFuzzEngine
import GraphSpec
import GraphStore

/// The graph target's concurrent steps: the background actor (`CatalogRefresh`, SwiftData's `@ModelActor` shape, over
/// context 1) refreshing a work's title while the main actor deletes or retitles a work and saves. Each branch is
/// predicted by the specification as if it ran alone, in one go; a step is judged by linearizability. The refresh may be
/// cancelled at its await (B9); the main actor's steps only join a refresh (alone each is an ordinary step).
extension GraphMachine {
    /// A main-actor branch on a saved work of the main context: `steps` (of the work and a title's index) in one job;
    /// only steps the specification says save (a failed save is the sequential steps' to judge).
    private func main(_ name: String, titled: Bool = false, _ steps: @escaping @Sendable (Ref, Int) -> [GraphCommand]) -> Action<GraphMachine> {
        .concurrent(name, weight: 2, when: { $0.hasSavedMainWork }, arguments: { args, model in
            let title = titled ? args.int("title", in: 0...2) : 0
            let work = try args.ref("work", among: model.refs.count) { ref in
                var after = model
                guard model.isSavedMainWork(Ref(ref)), case .saved = after.inOneGo(steps(Ref(ref), title)).value else { return false }
                return true
            }
            return (work: work, steps: steps(work, title))
        }, predict: { branch, model in model.inOneGo(branch.steps) }, perform: { branch, system in
            try await MainActor.run { try system.inOneGo(branch.steps) }
        }, joinsOnly: true)
    }

    /// The concurrent actions, drawn seldom (a scheduled step costs what dozens of sequential ones do). Only the refresh
    /// begins a step; it weighs as much as the main actor's two together, so that half the pairs mix them and steps
    /// come as often as when the main actor's could begin one too.
    var concurrentActions: [Action<GraphMachine>] {
        [
            .concurrent("refreshTitle", weight: 4, when: { $0.hasSavedMainWork }, arguments: { args, model in
                let work = try args.ref("work", among: model.refs.count) { model.isSavedMainWork(Ref($0)) }
                return (work: work, title: args.int("title", in: 0...2))
            }, predict: { arguments, model in
                model.refreshTitle(model.objects[model.refs[arguments.work.index]].id, title: BooksEntities.titles[arguments.title])
            }, cancelled: { _, model in model.cancelledRefresh() }, perform: { arguments, system in
                try await system.refreshTitle(arguments.work, title: BooksEntities.titles[arguments.title].stringText)
            }),
            main("removeWork") { work, _ in [.delete(work), .save(context: 0)] },
            // A work's settable slot 0 is its title.
            main("retitle", titled: true) { work, title in [.set(work, slot: 0, variant: title), .save(context: 0)] },
        ]
    }
}

extension GraphModel {
    /// Whether `ref` names a saved work of the main context (context 0) of this launch.
    func isSavedMainWork(_ ref: Ref) -> Bool {
        guard let o = object(ref.index) else { return false }
        return objects[o].entity == BooksEntities.work && objects[o].context == 0 && objects[o].lifecycle == .registered
            && objects[o].id?.permanent == true && !isEarlierLaunch(ref)
    }

    var hasSavedMainWork: Bool { !crashed && refs.indices.contains { isSavedMainWork(Ref($0)) } }
}

extension GraphSystem {
    /// The main context passes the work's identifier to the background actor, whose lookup of the title is a
    /// suspension (other jobs run meanwhile); observed: `.notFound` when the actor found the work gone, else its
    /// save's outcome, or the first trap the store raised.
    func refreshTitle(_ work: Ref, title: String) async throws -> GraphObservation {
        let traps = store.trapCount
        guard let id = store.model(work).persistentModelID else { throw HarnessFault("\(work) has no identifier to pass to the background actor") }
        return try await refresh(on: backgroundActor(), id, title: title, traps: traps).withoutReusedNumbers
    }

    /// The refresh, observed on the actor: what it saved is taken in the job that saved it, before anything else runs.
    private func refresh(on actor: isolated CatalogRefresh, _ id: PersistentIdentifier, title: String, traps: Int) async throws -> GraphObservation {
        let outcome: Result<RefreshOutcome, LibrarySaveError>
        do throws(LibrarySaveError) {
            outcome = .success(try await actor.refreshTitle(of: id) {
                await Task.yield()
                return title
            })
        } catch {
            outcome = .failure(error)
        }
        if let own = (traps..<store.trapCount).first(where: { !mainActorTraps.contains($0) }) { return .trap(store.trapName(at: own)) }
        switch outcome {
        case .success(.gone): return .notFound
        case .success(.cancelled): return .cancelled(changes: actor.modelContext.hasChanges)
        case .success(.refreshed): return try store.observeSave(.success(nil))
        case .failure(.refused(let issues)): return try store.observeSave(.success(issues.map(\.rawValue)))
        case .failure(.store(let error)): return try store.observeSave(.failure(error))
        }
    }

    /// Store steps in one job of the main actor, each save `Library.save()`: the last step's observation, or the first
    /// trap.
    func inOneGo(_ commands: [GraphCommand]) throws(HarnessFault) -> GraphObservation {
        let traps = store.trapCount
        defer { mainActorTraps += traps..<store.trapCount }
        var last = GraphObservation.none
        for command in commands {
            last = try run(command)
            if last.isTrap { return last }
        }
        return last
    }

    /// The actor that owns context 1: one per context, so a relaunch's new context gets a new actor.
    private func backgroundActor() -> CatalogRefresh {
        if let background, background.context === store.contexts[1] { return background.actor }
        let made = CatalogRefresh(modelContext: store.contexts[1], policy: policy)
        background = (made, store.contexts[1])
        return made
    }
}
