import GraphFuzzEngine
import GraphSpec

/// The graph target's actions: each draws its arguments from the specification's state, so every
/// command is meaningful there; `GraphModel.step` predicts and `GraphSystem.run` performs. The
/// simplest option is first everywhere (a create is the simplest step, context 0 the simplest context).
extension GraphMachine {
    public var actions: [Action<GraphMachine>] {
        Self.actions(perform: { command, system in try system.run(command) }, compare: compare,
                     swiftLines: { command, predicted, step, isLast in swiftLines(command, step, predicted: predicted, isLast: isLast) })
    }

    /// The graph's actions for a machine over the graph specification whose system performs a command with
    /// `perform` (the backend differential runs them on two stores).
    package static func actions<M: StateMachine>(perform: @escaping (GraphCommand, inout M.System) throws -> GraphObservation,
                                         compare: ((Prediction<GraphObservation>, GraphObservation, TraceStep) -> Failure?)?,
                                         swiftLines: ((GraphCommand, Prediction<GraphObservation>, TraceStep, Bool) -> [String])?) -> [Action<M>]
    where M.Model == GraphModel {
        func action(_ name: String, _ weight: UInt32, when precondition: @escaping (GraphModel) -> Bool = { _ in true },
                    _ arguments: @escaping (inout Arguments, GraphModel) throws -> GraphCommand) -> Action<M> {
            Self.action(name, weights: nil, fixed: weight, when: precondition, arguments, perform, compare, swiftLines)
        }
        func action(_ name: String, weights: @escaping (GraphModel) -> UInt32, when precondition: @escaping (GraphModel) -> Bool = { _ in true },
                    _ arguments: @escaping (inout Arguments, GraphModel) throws -> GraphCommand) -> Action<M> {
            Self.action(name, weights: weights, fixed: nil, when: precondition, arguments, perform, compare, swiftLines)
        }
        return [
            // Creates dominate while there is little to act on (as the other actions' preconditions fail).
            action("create", weights: { $0.refs.count < 3 ? 24 : 8 }) { args, model in
                let result = args.result()
                return .create(result: result, entity: args.name("entity", from: BooksEntities.names, weights: Self.createWeights(model)),
                               variant: args.int("variant", in: 0...2) { $0.chooseWeighted([6, 2, 2]) },
                               context: args.int("context", in: -1...1) { draw in
                                   let context = [0, -1, 1][draw.chooseWeighted([5, 2, 1])]
                                   let steer = draw.chooseBool(probability: 0.8)
                                   return model.lacking.map { steer ? $0.context : context } ?? context
                               })
            },
            action("insert", 3, when: { $0.hasLive }) { args, model in
                let anyModel = args.flag(probability: 0.1)
                let ref = try args.ref("model", among: model.refs.count, where: {
                    model.refs[$0] >= 0 && (anyModel || model.objects[model.refs[$0]].lifecycle == .new)
                })
                return .insert(ref, context: args.context())
            },
            // Count limits (G10): a model whose limited to-many can take one more is filled, to maxCount and beyond.
            // Once one holds a model, it is filled (the fullest first) until it is one beyond.
            action("relate", weights: { m in let fullest = m.fullest; return fullest > 0 ? 24 : fullest == 0 ? 8 : 5 }, when: { $0.hasLive }) { args, model in
                let fullest = model.fullest
                let fill = args.flag(probability: fullest > 0 ? 0.85 : 0.6) && fullest >= 0
                let source = try fill ? args.ref("model", among: model.refs.count, where: {
                    let o = model.refs[$0]
                    return o >= 0 && model.fillable(o).map { model.objects[o].links[$0].count == fullest } ?? false
                })
                                    : args.live("model", model)
                // Replaying, the trace's values are read as they are; the model is consulted only to draw them.
                let relationships = args.isReplaying ? [] : model.entities[model.entity(source)].relationships
                let r = args.int("relationship", in: 0...2) { draw in
                    let any = Int(draw.choose(upTo: UInt64(relationships.count - 1)))
                    return fill ? model.fillable(model.refs[source.index])! : any
                }
                let sameContext = args.flag(probability: 0.85)
                let target = try args.ref("target", among: model.refs.count, where: {
                    let o = model.refs[$0]
                    if fill { return o >= 0 && model.fillTarget(model.refs[source.index], r, o) }
                    guard o >= 0, model.objects[o].entity == relationships[r].destination else { return false }
                    let context = model.objects[o].context
                    return !sameContext || context == model.context(source) || context < 0
                })
                return .relate(source, relationship: r, target: target)
            },
            // The crash class, stage 4: the context holding a pending delete of a row the other context holds saves.
            // Count limits: the context holding a model beyond a limit saves.
            action("save", weights: { m in m.deletesForeignRow(0) || m.deletesForeignRow(1) || m.overfullContext != nil ? 20 : 6 }) { args, model in
                let story = args.flag(probability: 0.8) ? (0...1).first { model.deletesForeignRow($0) } ?? model.overfullContext : nil
                return .save(context: args.int("context", in: 0...1) { draw in
                    let any = [0, 1][draw.chooseWeighted([6, 1])]
                    return story ?? any
                })
            },
            action("wishlist", 4, when: { $0.has(BooksEntities.work) }) { args, model in
                let result = args.result()
                let work = try args.ref("work", of: BooksEntities.work, model)
                return .wishlist(result: result, work: work, context: args.domainContext(work, model))
            },
            action("owned", 4, when: { $0.has(BooksEntities.work) && $0.has(BooksEntities.edition) }) { args, model in
                let result = args.result()
                let work = try args.ref("work", of: BooksEntities.work, model)
                let edition = try args.ref("edition", of: BooksEntities.edition, model)
                return .owned(result: result, work: work, edition: edition, context: args.domainContext(work, model))
            },
            // The crash class, stage 3: one context deletes a row the other context holds a model of.
            action("delete", weights: { m in m.anyRef { m.isShared($0) } ? 14 : 4 }, when: { m in m.refs.contains { $0 >= 0 && m.objects[$0].context >= 0 } }) { args, model in
                let story = args.flag(probability: 0.8) && model.anyRef { model.isShared($0) }
                return .delete(try args.ref("model", among: model.refs.count, where: {
                    model.refs[$0] >= 0 && model.context(Ref($0)) >= 0 && (!story || model.isShared(model.refs[$0]))
                }))
            },
            // The crash class, stage 5: the model whose row another context deleted is read (G17).
            action("read", weights: { $0.hasStale ? 8 : 3 }, when: { $0.hasLive }) { args, model in
                let ref = try args.live("model", model)
                return .read(ref, property: args.int("property", in: 0...10) {
                    let shape = model.entities[model.entity(ref)]
                    return Int($0.choose(upTo: UInt64(shape.attributes.count + shape.relationships.count - 1)))
                })
            },
            action("state", 2, when: { $0.hasLive }) { args, model in .state(try args.live("model", model)) },
            action("set", 4, when: { $0.hasLive }) { args, model in
                let ref = try args.live("model", model)
                let entity = args.isReplaying ? 0 : model.entity(ref)
                // The hand-picked slots weigh more; every other attribute with schema boundaries is sometimes set.
                let slot = args.int("slot", in: 0...(BooksEntities.settableSlotCount - 1)) { draw in
                    draw.chooseWeighted(SetWeights.slots[entity])
                }
                return .set(ref, slot: slot, variant: args.int("variant", in: 0...(BooksEntities.settablePoolCount - 1)) { draw in
                    draw.chooseWeighted(SetWeights.variants[entity][slot])
                })
            },
            action("unrelate", 1, when: { $0.hasLive }) { args, model in
                let source = try args.live("model", model)
                let links = args.isReplaying ? [] : model.objects[model.refs[source.index]].links
                let r = args.int("relationship", in: 0...2) { Int($0.choose(upTo: UInt64(links.count - 1))) }
                let target = try args.ref("target", among: model.refs.count, where: { model.refs[$0] >= 0 && links[r].contains(model.refs[$0]) })
                return .unrelate(source, relationship: r, target: target)
            },
            action("rollback", 1) { args, _ in .rollback(context: args.context()) },
            // The crash class, stage 1: a saved model's identifier is held.
            action("holdID", weights: { m in m.anyRef { m.unheldSaved($0) } ? 10 : 2 }, when: { $0.hasLive }) { args, model in
                let story = args.flag(probability: 0.8) && model.anyRef { model.unheldSaved($0) }
                let stale = args.flag(probability: 0.6) && model.hasStale && !story
                return .holdID(try args.ref("model", among: model.refs.count, where: { r in
                    let o = model.refs[r]
                    return o >= 0 && (story ? model.unheldSaved(o) : !stale || model.isStale(o))
                }))
            },
            // Stage 2: the held row is looked up in the context that has no model of it; stage 5: a stale model is
            // looked up where another context's save deleted its row (G15).
            action("lookup", weights: { m in
                       m.held.indices.contains { m.staleContext($0) != nil } ? 30 : m.held.indices.contains { m.missingContext($0) != nil } ? 14 : 3
                   },
                   when: { $0.held.contains { $0 != nil } }) { args, model in
                let result = args.result()
                let anyStale = model.held.indices.contains { model.staleContext($0) != nil }
                func open(_ h: Int) -> Bool { anyStale ? model.staleContext(h) != nil : model.missingContext(h) != nil }
                let story = args.flag(probability: 0.8) && model.held.indices.contains { open($0) }
                let held = try args.index("held", among: model.held.count, where: { model.held[$0] != nil && (!story || open($0)) })
                let stale = story ? model.staleContext(held) : nil
                let missing = story ? model.missingContext(held) : nil
                let context = args.int("context", in: 0...1) { draw in
                    let any = draw.int(in: 0...1)
                    return stale ?? missing ?? any
                }
                let weights: [UInt32]? = stale != nil ? [1, 4, 1] : missing != nil ? [3, 1, 3] : nil
                let method = LookupMethod.allCases[args.name("method", from: LookupMethod.allCases.map(\.rawValue), weights: weights)]
                return .lookup(result: result, held: held, context: context, method: method)
            },
            action("fetchTitle", 1) { args, _ in .fetchTitle(context: args.context(), variant: args.int("variant", in: 0...2)) },
            action("acquire", 2, when: { $0.has(BooksEntities.entry) && $0.has(BooksEntities.edition) }) { args, model in
                let entry = try args.ref("entry", of: BooksEntities.entry, model)
                let edition = try args.ref("edition", of: BooksEntities.edition, model)
                return .acquire(entry, edition: edition)
            },
            action("userEntry", 2, when: { $0.has(BooksEntities.work) }) { args, model in
                .userEntry(try args.ref("work", of: BooksEntities.work, model))
            },
            action("validate", 1, when: { $0.has(BooksEntities.entry) }) { args, model in
                .validate(try args.ref("entry", of: BooksEntities.entry, model))
            },
        ]
        // The on-disk actions (G22–G26): a relaunch (on the SQLite backend it first tries damaged copies of the
        // store file, G26), and a save killed inside its transaction, then relaunched.
        + [
            action("relaunch", 1, when: { $0.allows(.relaunch) }) { _, _ in .relaunch },
            action("killedSave", 2, when: { m in (0...1).contains { m.writeWindow($0) > 0 } }) { args, model in
                let context = args.int("context", in: 0...1) { draw in
                    let windows = [model.writeWindow(0), model.writeWindow(1)]
                    let either = draw.chooseWeighted([6, 1])
                    if windows[0] > 0 && windows[1] > 0 { return either }
                    return windows[0] > 0 ? 0 : 1
                }
                // The point is traced as write steps before the end of the save's window (`back`), so it stays inside
                // the window when shrinking removes earlier steps; 0, the last step inside, is the simplest and
                // reaches furthest into a faulty grouping's later transactions.
                let window = model.writeWindow(context)
                let back = args.int("back", in: 0...63) { draw in
                    let last = draw.chooseBool(probability: 0.5)
                    let any = Int(draw.choose(upTo: UInt64(max(0, min(63, window - 1)))))
                    return last ? 0 : any
                }
                return .killedSave(context: context, point: max(0, window - 1 - back))
            },
        ]
    }

    /// Create weights per entity: more of the destination a count limit still lacks (G10).
    static func createWeights(_ model: GraphModel) -> [UInt32] {
        var weights: [UInt32] = [4, 3, 2, 1]
        if let lacking = model.lacking { weights[lacking.destination] += 4 }
        return weights
    }

    /// Every graph action: no step after the store crashed; the specification predicts, the system performs.
    /// An action's arguments draw the same choices whatever the state (a story only selects among what was
    /// drawn), so that when shrinking removes earlier steps the later steps' choices keep their meaning.
    /// A replayed step must also be one the specification allows in the state the earlier steps leave.
    private static func action<M: StateMachine>(
        _ name: String, weights: ((GraphModel) -> UInt32)?, fixed: UInt32?, when precondition: @escaping (GraphModel) -> Bool,
        _ arguments: @escaping (inout Arguments, GraphModel) throws -> GraphCommand,
        _ perform: @escaping (GraphCommand, inout M.System) throws -> GraphObservation,
        _ compare: ((Prediction<GraphObservation>, GraphObservation, TraceStep) -> Failure?)?,
        _ swiftLines: ((GraphCommand, Prediction<GraphObservation>, TraceStep, Bool) -> [String])?
    ) -> Action<M> where M.Model == GraphModel {
        Action(name, weights: weights, fixed: fixed, when: { !$0.crashed && precondition($0) },
               arguments: { args, model in
                   let command = try arguments(&args, model)
                   try args.require(model.leavesEarlierLaunches(command))
                   if args.isReplaying { try args.require(model.allows(command)) }
                   return command
               },
               predict: { command, model in
                   let launchRule = model.launchRule(command)
                   let (value, rule) = model.step(command)
                   let decided = launchRule ?? rule
                   return Prediction(value, rule: decided, alsoDecided: model.alsoDecided.filter { $0 != decided })
               },
               perform: perform, compare: compare, swiftLines: swiftLines)
    }
}

/// The set action's weights, per entity: of its settable slots (`BooksEntities.handPicked`), and of each slot's pool
/// (`BooksEntities.settableWeights`). Both are pure functions of the entity and slot, so they are taken once per
/// process instead of at every set step (the specification derives them from the whole schema each time).
enum SetWeights {
    static let slots: [[UInt32]] = BooksEntities.names.indices.map { entity in
        BooksEntities.settable(entity).indices.map { BooksEntities.handPicked(entity, $0) > 0 ? 4 : 2 }
    }
    static let variants: [[[UInt32]]] = BooksEntities.names.indices.map { entity in
        BooksEntities.settable(entity).indices.map { BooksEntities.settableWeights(entity, $0) }
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

    /// A reference bound to a model; while a model's row was deleted by another context's save (the crash
    /// class's last stage), that model mostly.
    mutating func live(_ label: String, _ model: GraphModel) throws(Unavailable) -> Ref {
        let stale = flag(probability: 0.6) && model.hasStale
        return try ref(label, among: model.refs.count, where: { model.refs[$0] >= 0 && (!stale || model.isStale(model.refs[$0])) })
    }

    /// A reference bound to a model of `entity`.
    mutating func ref(_ label: String, of entity: Int, _ model: GraphModel) throws(Unavailable) -> Ref {
        try ref(label, among: model.refs.count, where: { model.refs[$0] >= 0 && model.objects[model.refs[$0]].entity == entity })
    }

    /// A context for a domain operation on `ref`: its own mostly, else the other.
    mutating func domainContext(_ ref: Ref, _ model: GraphModel) -> Int {
        int("context", in: 0...1) { draw in
            let own = max(0, model.context(ref))
            return draw.chooseWeighted([8, 1]) == 0 ? own : 1 - own
        }
    }
}
