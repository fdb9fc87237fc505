import BooksSpec
import GraphFuzzEngine
import GraphSpec
import GraphStoreRules

/// The graph target's actions: the store's (`StoreActions`, a save being `Library.save()`), with the library's
/// domain operations among them, in the order they have always been drawn in.
extension GraphMachine {
    /// The actions of a machine over the BooksTracker specification whose system performs a store command with
    /// `store` and a domain operation with `books` (the backend differential runs them on two stores). `watch` is
    /// shown the state before each store command and the command (the reach measurement, `RareState`).
    package static func actions<M: StateMachine>(
        store: @escaping (GraphCommand, inout M.System) throws -> GraphObservation,
        books: @escaping (BooksCommand, inout M.System) throws -> BooksObservation,
        swiftLines: ((GraphCommand, Prediction<GraphObservation>, TraceStep, Bool) -> [String])? = nil,
        booksSwiftLines: ((BooksCommand, Prediction<BooksObservation>, TraceStep, Bool) -> [String])? = nil,
        watch: ((GraphModel, GraphCommand) -> Void)? = nil
    ) -> [Action<M>] where M.Model == GraphModel {
        let predictStore: (GraphCommand, inout GraphModel) -> Prediction<GraphObservation> = { command, model in
            watch?(model, command)
            return model.predict(command) { $0.librarySave($1) }
        }
        let storeActions: [Action<M>] = StoreActions.actions(predict: predictStore, perform: store, swiftLines: swiftLines)
        func named(_ name: String) -> Action<M> { storeActions.first { $0.name == name }! }
        func action(_ name: String, _ weight: UInt32, when precondition: @escaping (GraphModel) -> Bool,
                    _ arguments: @escaping (inout Arguments, GraphModel) throws -> BooksCommand) -> Action<M> {
            Action(name, weight: weight, when: { !$0.crashed && precondition($0) }, arguments: arguments,
                   predict: { command, model in model.predict(command) }, perform: books, swiftLines: booksSwiftLines)
        }
        let domain: [Action<M>] = [
            action("wishlist", 4, when: { $0.has(BooksEntities.work) }, { args, model in
                let result = args.result()
                let work = try args.ref("work", of: BooksEntities.work, model)
                let context = args.domainContext(work, model)
                try args.require(result.index == model.refs.count && model.isEntity(work, BooksEntities.work) && !model.isEarlierLaunch(work))
                return .wishlist(result: result, work: work, context: context)
            }),
            action("owned", 4, when: { $0.has(BooksEntities.work) && $0.has(BooksEntities.edition) }, { args, model in
                let result = args.result()
                let work = try args.ref("work", of: BooksEntities.work, model)
                let edition = try args.ref("edition", of: BooksEntities.edition, model)
                let context = args.domainContext(work, model)
                try args.require(result.index == model.refs.count && model.isEntity(work, BooksEntities.work)
                                 && model.isEntity(edition, BooksEntities.edition) && !model.isEarlierLaunch(work) && !model.isEarlierLaunch(edition))
                return .owned(result: result, work: work, edition: edition, context: context)
            }),
        ]
        let operations: [Action<M>] = [
            action("acquire", 2, when: { $0.has(BooksEntities.entry) && $0.has(BooksEntities.edition) }, { args, model in
                let entry = try args.ref("entry", of: BooksEntities.entry, model)
                let edition = try args.ref("edition", of: BooksEntities.edition, model)
                try args.require(model.isEntity(entry, BooksEntities.entry) && model.isEntity(edition, BooksEntities.edition)
                                 && !model.isEarlierLaunch(entry) && !model.isEarlierLaunch(edition))
                return .acquire(entry, edition: edition)
            }),
            action("userEntry", 2, when: { $0.has(BooksEntities.work) }, { args, model in
                let work = try args.ref("work", of: BooksEntities.work, model)
                try args.require(model.isEntity(work, BooksEntities.work) && !model.isEarlierLaunch(work))
                return .userEntry(work)
            }),
            action("validate", 1, when: { $0.has(BooksEntities.entry) }, { args, model in
                let entry = try args.ref("entry", of: BooksEntities.entry, model)
                try args.require(model.isEntity(entry, BooksEntities.entry) && !model.isEarlierLaunch(entry))
                return .validate(entry)
            }),
        ]
        // A fetch of works by title: the store's fetch with the title pool's values. While a saved work's title has a
        // pending change, mostly in its context, by its pending or its saved title (G16: the fetch sees the change).
        func titleChange(_ model: GraphModel) -> (context: Int, pending: SpecValue, saved: SpecValue)? {
            model.pendingChange(entity: BooksEntities.work, attribute: BooksEntities.workTitle)
        }
        let fetchTitle: Action<M> = Action("fetchTitle", weights: { titleChange($0) != nil ? 10 : 1 }, when: { !$0.crashed },
                                           arguments: { args, model in
            let change = args.flag(probability: 0.8) ? titleChange(model) : nil
            let context = args.int("context", in: 0...1) { draw in
                let any = [0, 1][draw.chooseWeighted([6, 1])]
                return change?.context ?? any
            }
            let variant = args.int("variant", in: 0...2) { draw in
                let any = draw.int(in: 0...2)
                let value = draw.chooseBool() ? change?.pending : change?.saved
                return value.flatMap { BooksEntities.titles.firstIndex(of: $0) } ?? any
            }
            return GraphCommand.fetch(context: context, entity: BooksEntities.work, attribute: BooksEntities.workTitle,
                                      value: BooksEntities.titles[variant])
        }, predict: predictStore, perform: store, swiftLines: swiftLines)
        return ["create", "insert", "relate", "save"].map(named) + domain
            + ["delete", "read", "state", "set", "unrelate", "rollback", "holdID", "lookup"].map(named)
            + [fetchTitle] + operations + ["relaunch", "killedSave"].map(named)
    }
}

extension GraphModel {
    /// Whether `ref` names a model of `entity`.
    func isEntity(_ ref: Ref, _ entity: Int) -> Bool { object(ref.index).map { objects[$0].entity == entity } ?? false }
    func has(_ entity: Int) -> Bool { refs.contains { $0 >= 0 && objects[$0].entity == entity } }
}

extension Arguments {
    /// A reference bound to a model of `entity`.
    mutating func ref(_ label: String, of entity: Int, _ model: GraphModel) throws(Unavailable) -> Ref {
        try ref(label, among: model.refs.count, where: { model.refs[$0] >= 0 && model.objects[model.refs[$0]].entity == entity })
    }

    /// A context for a domain operation on `ref`: its own mostly, else the other.
    mutating func domainContext(_ ref: Ref, _ model: GraphModel) -> Int {
        int("context", in: 0...1) { draw in
            let own = max(0, model.objects[model.refs[ref.index]].context)
            return draw.chooseWeighted([8, 1]) == 0 ? own : 1 - own
        }
    }
}
