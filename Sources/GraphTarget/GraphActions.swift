import GraphFuzzEngine
import GraphSpec

/// The graph target's actions: each draws its arguments from the specification's state, so every
/// command is meaningful there; `GraphModel.step` predicts and `GraphSystem.run` performs. The
/// simplest option is first everywhere (a create is the simplest step, context 0 the simplest context).
extension GraphMachine {
    public var actions: [Action<GraphMachine>] {
        [
            // Creates dominate while there is little to act on (as the other actions' preconditions fail).
            action("create", weights: { $0.refs.count < 3 ? 24 : 8 }) { args, model in
                let result = args.result()
                return .create(result: result, entity: args.name("entity", from: BooksEntities.names, weights: [4, 3, 2, 1]),
                               variant: args.int("variant", in: 0...2) { $0.chooseWeighted([6, 2, 2]) },
                               context: args.int("context", in: -1...1) { [0, -1, 1][$0.chooseWeighted([5, 2, 1])] })
            },
            action("insert", 3, when: { $0.hasLive }) { args, model in
                let anyModel = args.flag(probability: 0.1)
                guard let ref = args.ref("model", among: model.refs.count, where: {
                    model.refs[$0] >= 0 && (anyModel || model.objects[model.refs[$0]].lifecycle == .new)
                }) else { return nil }
                return .insert(ref, context: args.context())
            },
            action("relate", 5, when: { $0.hasLive }) { args, model in
                guard let source = args.live("model", model) else { return nil }
                // Replaying, the trace's values are read as they are; the model is consulted only to draw them.
                let relationships = args.isReplaying ? [] : model.entities[model.entity(source)].relationships
                let r = args.int("relationship", in: 0...2) { Int($0.choose(upTo: UInt64(relationships.count - 1))) }
                let sameContext = args.flag(probability: 0.85)
                guard let target = args.ref("target", among: model.refs.count, where: {
                    let o = model.refs[$0]
                    guard o >= 0, model.objects[o].entity == relationships[r].destination else { return false }
                    let context = model.objects[o].context
                    return !sameContext || context == model.context(source) || context < 0
                }) else { return nil }
                return .relate(source, relationship: r, target: target)
            },
            action("save", 6) { args, _ in .save(context: args.context()) },
            action("wishlist", 4, when: { $0.has(BooksEntities.work) }) { args, model in
                let result = args.result()
                guard let work = args.ref("work", of: BooksEntities.work, model) else { return nil }
                return .wishlist(result: result, work: work, context: args.domainContext(work, model))
            },
            action("owned", 4, when: { $0.has(BooksEntities.work) && $0.has(BooksEntities.edition) }) { args, model in
                let result = args.result()
                guard let work = args.ref("work", of: BooksEntities.work, model),
                      let edition = args.ref("edition", of: BooksEntities.edition, model) else { return nil }
                return .owned(result: result, work: work, edition: edition, context: args.domainContext(work, model))
            },
            action("delete", 4, when: { m in m.refs.contains { $0 >= 0 && m.objects[$0].context >= 0 } }) { args, model in
                args.ref("model", among: model.refs.count, where: { model.refs[$0] >= 0 && model.context(Ref($0)) >= 0 }).map { .delete($0) }
            },
            action("read", 3, when: { $0.hasLive }) { args, model in
                guard let ref = args.live("model", model) else { return nil }
                return .read(ref, property: args.int("property", in: 0...10) {
                    let shape = model.entities[model.entity(ref)]
                    return Int($0.choose(upTo: UInt64(shape.attributes.count + shape.relationships.count - 1)))
                })
            },
            action("state", 2, when: { $0.hasLive }) { args, model in args.live("model", model).map { .state($0) } },
            action("set", 4, when: { $0.hasLive }) { args, model in
                guard let ref = args.live("model", model) else { return nil }
                let settable = args.isReplaying ? [] : BooksEntities.settable(model.entity(ref))
                let slot = args.int("slot", in: 0...1) { Int($0.choose(upTo: UInt64(settable.count - 1))) }
                return .set(ref, slot: slot, variant: args.int("variant", in: 0...2) {
                    $0.chooseWeighted(settable[slot].pool.count == 3 ? [5, 3, 2] : [5, 3])
                })
            },
            action("unrelate", 1, when: { $0.hasLive }) { args, model in
                guard let source = args.live("model", model) else { return nil }
                let links = args.isReplaying ? [] : model.objects[model.refs[source.index]].links
                let r = args.int("relationship", in: 0...2) { Int($0.choose(upTo: UInt64(links.count - 1))) }
                guard let target = args.ref("target", among: model.refs.count, where: { model.refs[$0] >= 0 && links[r].contains(model.refs[$0]) })
                else { return nil }
                return .unrelate(source, relationship: r, target: target)
            },
            action("rollback", 1) { args, _ in .rollback(context: args.context()) },
            action("holdID", 2, when: { $0.hasLive }) { args, model in args.live("model", model).map { .holdID($0) } },
            action("lookup", 3, when: { $0.held.contains { $0 != nil } }) { args, model in
                let result = args.result()
                guard let held = args.index("held", among: model.held.count, where: { model.held[$0] != nil }) else { return nil }
                return .lookup(result: result, held: held, context: args.int("context", in: 0...1),
                               method: args.enumeration("method", LookupMethod.self))
            },
            action("fetchTitle", 1) { args, _ in .fetchTitle(context: args.context(), variant: args.int("variant", in: 0...2)) },
            action("acquire", 2, when: { $0.has(BooksEntities.entry) && $0.has(BooksEntities.edition) }) { args, model in
                guard let entry = args.ref("entry", of: BooksEntities.entry, model),
                      let edition = args.ref("edition", of: BooksEntities.edition, model) else { return nil }
                return .acquire(entry, edition: edition)
            },
            action("userEntry", 2, when: { $0.has(BooksEntities.work) }) { args, model in
                args.ref("work", of: BooksEntities.work, model).map { .userEntry($0) }
            },
            action("validate", 1, when: { $0.has(BooksEntities.entry) }) { args, model in
                args.ref("entry", of: BooksEntities.entry, model).map { .validate($0) }
            },
        ] + launchActions
    }

    /// The on-disk actions (G22–G25): a relaunch, and a save killed inside its transaction, then relaunched.
    private var launchActions: [Action<GraphMachine>] {
        [
            action("relaunch", 1, when: { $0.allows(.relaunch) }) { _, _ in .relaunch },
            action("killedSave", 2, when: { m in (0...1).contains { m.writeWindow($0) > 0 } }) { args, model in
                let context = args.int("context", in: 0...1) { draw in
                    let windows = [model.writeWindow(0), model.writeWindow(1)]
                    if windows[0] > 0 && windows[1] > 0 { return draw.chooseWeighted([6, 1]) }
                    return windows[0] > 0 ? 0 : 1
                }
                // The point is traced as write steps before the end of the save's window (`back`), so it stays inside
                // the window when shrinking removes earlier steps; 0, the last step inside, is the simplest and
                // reaches furthest into a faulty grouping's later transactions.
                let window = model.writeWindow(context)
                let back = args.int("back", in: 0...63) { draw in
                    draw.chooseBool(probability: 0.5) ? 0 : Int(draw.choose(upTo: UInt64(max(0, min(63, window - 1)))))
                }
                return .killedSave(context: context, point: max(0, window - 1 - back))
            },
        ]
    }

    /// Every graph action: no step after the store crashed; the specification predicts, the system performs.
    private func action(_ name: String, _ weight: UInt32, when precondition: @escaping (GraphModel) -> Bool = { _ in true },
                        _ arguments: @escaping (inout Arguments, GraphModel) -> GraphCommand?) -> Action<GraphMachine> {
        action(name, weights: { _ in weight }, when: precondition, arguments)
    }

    private func action(_ name: String, weights: @escaping (GraphModel) -> UInt32, when precondition: @escaping (GraphModel) -> Bool = { _ in true },
                        _ arguments: @escaping (inout Arguments, GraphModel) -> GraphCommand?) -> Action<GraphMachine> {
        Action(name, weights: weights, when: { !$0.crashed && precondition($0) },
               arguments: { args, model in arguments(&args, model).flatMap { model.leavesEarlierLaunches($0) ? $0 : nil } },
               predict: { command, model in
                   let launchRule = model.launchRule(command)
                   let (value, rule) = model.step(command)
                   return Prediction(value, rule: launchRule ?? rule)
               },
               perform: { command, system in system.run(command) })
    }
}

extension GraphModel {
    var hasLive: Bool { refs.contains { $0 >= 0 } }
    func has(_ entity: Int) -> Bool { refs.contains { $0 >= 0 && objects[$0].entity == entity } }
    func entity(_ ref: Ref) -> Int { objects[refs[ref.index]].entity }
    func context(_ ref: Ref) -> Int { objects[refs[ref.index]].context }
}

extension Arguments {
    /// A context for a save, rollback, fetch or insert: 0 mostly.
    mutating func context() -> Int { int("context", in: 0...1) { $0.chooseWeighted([6, 1]) } }

    /// A reference bound to a model.
    mutating func live(_ label: String, _ model: GraphModel) -> Ref? {
        ref(label, among: model.refs.count, where: { model.refs[$0] >= 0 })
    }

    /// A reference bound to a model of `entity`.
    mutating func ref(_ label: String, of entity: Int, _ model: GraphModel) -> Ref? {
        ref(label, among: model.refs.count, where: { model.refs[$0] >= 0 && model.objects[model.refs[$0]].entity == entity })
    }

    /// A context for a domain operation on `ref`: its own mostly, else the other.
    mutating func domainContext(_ ref: Ref, _ model: GraphModel) -> Int {
        int("context", in: 0...1) { draw in
            let own = max(0, model.context(ref))
            return draw.chooseWeighted([8, 1]) == 0 ? own : 1 - own
        }
    }
}
