import GraphFuzzEngine
import GraphSpec
import GraphStore

/// An action of your app for a `SchemaMachine`: its arguments, what it does to the object graph (its description,
/// said once, in `GraphEffect`'s operations) and the app's code that does it. The specification applies the
/// description by the rules and predicts what the code must observe, under your rule:
///
///     AppAction("addTask", rule: "T1", arguments: { args in try args.model(Group.self) },
///               effect: { group, graph in
///                   let task = graph.create(Task(title: "Milk", groups: []))
///                   graph.insert(task, into: graph.context(of: group))
///                   graph.relate(task, \.groups, to: group)
///               },
///               perform: { group, app in try addTask("Milk", to: app[group]) })
///
/// A description that creates a model binds it to the step's result (`v3 = addTask(group: v1)`): the code returns
/// the model it made. The action runs only while the app has not stopped at a trap. A mistake in the action — a
/// description that names no model, a key path that is no declared property, code that returns no model where the
/// description creates one, or one it did not make — stops the check with a report naming the action and what to
/// change; the test process goes on.
public struct AppAction: Sendable, CustomStringConvertible {
    public let name: String
    /// The rule the action's observations are judged under (a trap its description runs into, under the rule that
    /// predicts the trap).
    public let rule: String
    let build: @Sendable (Schema) -> Action<SchemaMachine>

    /// `addTask (T1)`.
    public var description: String { "\(name) (\(rule))" }

    /// An action that makes no model: `perform` returns nothing.
    public init<Arguments>(_ name: String, rule: String, weight: UInt32 = 1,
                           arguments: @escaping @Sendable (inout AppArguments) throws -> Arguments,
                           effect: @escaping @Sendable (Arguments, inout GraphEffect) -> Void,
                           perform: @escaping @Sendable (Arguments, AppModels) throws -> Void) {
        self.init(name: name, rule: rule, weight: weight, arguments: arguments, effect: effect) { arguments, app in
            try perform(arguments, app)
            return nil
        }
    }

    /// An action that makes a model: its description creates it, `perform` returns the model its code made.
    public init<Arguments, Made: PersistentModel>(_ name: String, rule: String, weight: UInt32 = 1,
                                                  arguments: @escaping @Sendable (inout AppArguments) throws -> Arguments,
                                                  effect: @escaping @Sendable (Arguments, inout GraphEffect) -> Void,
                                                  perform: @escaping @Sendable (Arguments, AppModels) throws -> Made) {
        self.init(name: name, rule: rule, weight: weight, arguments: arguments, effect: effect) { arguments, app in try perform(arguments, app) }
    }

    private init<Arguments>(name: String, rule: String, weight: UInt32,
                            arguments: @escaping @Sendable (inout AppArguments) throws -> Arguments,
                            effect: @escaping @Sendable (Arguments, inout GraphEffect) -> Void,
                            made: @escaping @Sendable (Arguments, AppModels) throws -> PersistentModel?) {
        self.name = name
        self.rule = rule
        build = { schema in
            Action(name, weight: weight, when: { !$0.crashed },
                   arguments: { args, state throws -> AppStep<Arguments> in
                       var app = AppArguments(args, state: state, schema: schema)
                       defer { args = app.arguments }
                       do {
                           let drawn = try arguments(&app)
                           // The description on a copy of the state: its mistakes are found before anything runs, and
                           // whether it creates a model says whether the step has a result.
                           var dry = GraphEffect(state: state, schema: schema)
                           effect(drawn, &dry)
                           if let misuse = dry.misuse { throw AppMisuse(misuse) }
                           if let created = dry.created {
                               let result = app.arguments.result()
                               try app.arguments.require(result == created.ref)
                           }
                           return AppStep(arguments: drawn, makes: dry.created?.ref, mentions: dry.mentions, saves: dry.saves)
                       } catch let misuse as AppMisuse {
                           throw HarnessFault("app action '\(name)': \(misuse)")
                       }
                   },
                   predict: { step, state in
                       var graph = GraphEffect(state: state, schema: schema)
                       effect(step.arguments, &graph)
                       state = graph.state
                       return graph.prediction(rule: rule)
                   },
                   perform: { step, system in try system.perform(name, step, made) })
        }
    }
}

/// What an app action's arguments hold for its prediction and its code: the drawn arguments, and what its
/// description makes, names and saves.
struct AppStep<Arguments> {
    let arguments: Arguments
    let makes: Ref?
    let mentions: [AppMention]
    let saves: Bool
}

/// A rule of your app checked after every step on the app's side (`AppModels`): nil while it holds, else what is
/// wrong.
public struct AppInvariant: Sendable {
    public let rule: String
    let check: @Sendable (AppModels) -> String?

    public init(_ rule: String, _ check: @escaping @Sendable (AppModels) -> String?) {
        self.rule = rule
        self.check = check
    }
}

extension SchemaSystem {
    /// Runs an app action's code and observes it: the first trap the store raised, else the outcome (a `SaveError`
    /// its code threw: the failed save's code) and the parts its description names. The model the code returns is
    /// bound to the step's result. A mistake of the action is a `HarnessFault` naming it.
    mutating func perform<Arguments>(_ name: String, _ step: AppStep<Arguments>,
                                     _ made: (Arguments, AppModels) throws -> PersistentModel?) throws -> AppObservation {
        let traps = trapCount
        var outcome = AppObservation.done
        let model: PersistentModel?
        do {
            model = try made(step.arguments, AppModels(self, making: step.makes))
        } catch let error as SaveError {
            outcome = AppObservation.saveFailed(error.code)
            model = nil
        } catch let misuse as AppMisuse {
            throw HarnessFault("app action '\(name)': \(misuse)")
        }
        let trapped = trapCount > traps
        if let made = step.makes {
            if let model, refs.contains(where: { $0 === model }) {
                throw HarnessFault("app action '\(name)': its code returned \(refs.firstIndex { $0 === model }.map { Ref($0) }!), a model an earlier step made; return the model it makes (\(made))")
            }
            if model == nil && !trapped && outcome == AppObservation.done {
                throw HarnessFault("app action '\(name)': its description creates \(made), but its code returned no model; return the model your code makes")
            }
            refs.append(model)
        } else if let model {
            throw HarnessFault("app action '\(name)': its code made a \(type(of: model)) that its description does not create; add `graph.create` to the description")
        }
        if trapped { return AppObservation(trap: trapName(at: traps)) }
        return appObservation(outcome: outcome, mentions: step.mentions, rows: step.saves)
    }
}
