/// A named target: its specification's rules, its mutants, and how to make its machine.
public struct Target: Sendable {
    public let name: String
    public let summary: String
    public let rules: [Rule]
    public let mutants: [Mutant]
    /// Default steps per case.
    public let defaultSteps: Int
    /// A fingerprint of the generators (bump when generation changes); corpus files record it.
    public let generatorVersion: String
    /// Modules an exported Swift test of this target imports (worked out when asked: finding them makes the
    /// production machine, which a process that runs another target never needs).
    @usableFromInline package var swiftImports: [String] { imports() }
    @usableFromInline let imports: @Sendable () -> [String]
    @usableFromInline
    let make: @Sendable (String?, String?) -> AnyMachine

    /// A target whose machine is made for a mutant's name (nil: production code); given a scratch folder, the
    /// machine keeps its files there (`StateMachine.usingScratchFolder`).
    @inlinable
    public init<M: StateMachine & Sendable>(name: String, summary: String, rules: [Rule], mutants: [Mutant],
                                            defaultSteps: Int = 30, generatorVersion: String,
                                            machine: @escaping @Sendable (_ mutant: String?) -> M) {
        self.init(name: name, summary: summary, rules: rules, mutants: mutants, defaultSteps: defaultSteps,
                  generatorVersion: generatorVersion) { mutant, scratchFolder in
            let made = machine(mutant)
            return scratchFolder.map(made.usingScratchFolder) ?? made
        }
    }

    /// A target whose machine keeps scratch files (store files, cache folders) in the folder it is given
    /// (`scratchFolder`: an existing folder that its caller removes afterwards; nil for the machine's default).
    @inlinable
    public init<M: StateMachine & Sendable>(name: String, summary: String, rules: [Rule], mutants: [Mutant],
                                            defaultSteps: Int = 30, generatorVersion: String,
                                            machine: @escaping @Sendable (_ mutant: String?, _ scratchFolder: String?) -> M) {
        self.name = name
        self.summary = summary
        self.rules = rules
        self.mutants = mutants
        self.defaultSteps = defaultSteps
        self.generatorVersion = generatorVersion
        self.imports = { AnyMachine.swiftImports(machine(nil, nil)) }
        self.make = { AnyMachine(machine($0, $1)) }
    }

    /// A target whose mutants are `table`'s: its machine is made for the selection of a mutant (the shipped
    /// one for production code); given a scratch folder, the machine keeps its files there.
    @inlinable
    public init<M: StateMachine & Sendable, Selection>(name: String, summary: String, rules: [Rule], mutants table: MutantTable<Selection>,
                                                       defaultSteps: Int = 30, generatorVersion: String,
                                                       machine: @escaping @Sendable (Selection) -> M) {
        self.init(name: name, summary: summary, rules: rules, mutants: table.mutants, defaultSteps: defaultSteps,
                  generatorVersion: generatorVersion) { mutant, scratchFolder in
            let made = machine(table.selection(for: mutant))
            return scratchFolder.map(made.usingScratchFolder) ?? made
        }
    }

    /// A target whose mutants are `table`'s and whose machine keeps scratch files in the folder it is given (as
    /// above).
    @inlinable
    public init<M: StateMachine & Sendable, Selection>(name: String, summary: String, rules: [Rule], mutants table: MutantTable<Selection>,
                                                       defaultSteps: Int = 30, generatorVersion: String,
                                                       machine: @escaping @Sendable (_ selection: Selection, _ scratchFolder: String?) -> M) {
        self.init(name: name, summary: summary, rules: rules, mutants: table.mutants, defaultSteps: defaultSteps,
                  generatorVersion: generatorVersion) { mutant, scratchFolder in machine(table.selection(for: mutant), scratchFolder) }
    }

    /// The machine against production code (`nil`) or against a named mutant. `scratchFolder`: an existing
    /// folder for the files its cases make (a worker process's own, removed by its parent), nil for the
    /// machine's default place.
    package func machine(mutant: String? = nil, scratchFolder: String? = nil) -> AnyMachine { make(mutant, scratchFolder) }

    public func mutant(named name: String) -> Mutant? { mutants.first { $0.name == name } }

    /// A fingerprint of the generators: the declared version plus a hash of the traces they make for four
    /// fixed seeds. Any change to generation (weights, ranges, commands) changes it, so corpus replay can
    /// report drift. The traces are generated against the model alone (for production code that passes them,
    /// the same as a full run), so computing it never runs a system that might crash or hang.
    package var generatorFingerprint: String {
        let machine = self.machine()
        var text = ""
        for seed in UInt64(1)...4 {
            text += machine.generate(Draw(seed: seed), 12).map(\.description).joined(separator: "\n") + "\n"
        }
        return "\(name)/g\(generatorVersion)/\(CaseHash.hex(CaseHash.fnv1a(text)).prefix(8))"
    }
}

/// A target's faulty variants: each a `Mutant` and what it selects in the production code (fault points, a
/// save grouping, a schema rule), with the shipped selection for production. Registering a mutant is one entry.
public struct MutantTable<Selection: Sendable>: Sendable {
    public let shipped: Selection
    @usableFromInline let entries: [(mutant: Mutant, selection: Selection)]

    /// `entries`: each mutant and what it selects, `[Mutant(…): selection, …]`.
    public init(shipped: Selection, _ entries: KeyValuePairs<Mutant, Selection>) {
        self.shipped = shipped
        self.entries = entries.map { (mutant: $0.key, selection: $0.value) }
    }

    /// The mutants, in registration order.
    public var mutants: [Mutant] { entries.map(\.mutant) }

    /// What `mutant` selects: the shipped selection for nil. A name no entry has is a programming error
    /// (targets check names against `mutants` before making a machine).
    @inlinable
    public func selection(for mutant: String?) -> Selection {
        guard let mutant else { return shipped }
        guard let entry = entries.first(where: { $0.mutant.name == mutant }) else {
            preconditionFailure("no mutant named '\(mutant)' (known: \(mutants.map(\.name).joined(separator: ", ")))")
        }
        return entry.selection
    }

    /// The entries: each mutant and what it selects.
    public var all: [(mutant: Mutant, selection: Selection)] { entries }
}
