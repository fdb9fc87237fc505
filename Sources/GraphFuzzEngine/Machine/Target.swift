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
    /// Modules an exported Swift test of this target imports.
    public let swiftImports: [String]
    @usableFromInline
    let make: @Sendable (String?, String?) -> AnyMachine

    /// A target whose machine keeps no files of its own.
    @inlinable
    public init<M: StateMachine & Sendable>(name: String, summary: String, rules: [Rule], mutants: [Mutant],
                                 defaultSteps: Int = 30, generatorVersion: String,
                                 machine: @escaping @Sendable (_ mutant: String?) -> M) {
        self.init(name: name, summary: summary, rules: rules, mutants: mutants, defaultSteps: defaultSteps,
                  generatorVersion: generatorVersion) { mutant, _ in machine(mutant) }
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
        self.swiftImports = AnyMachine(machine(nil, nil)).swiftImports
        self.make = { AnyMachine(machine($0, $1)) }
    }

    /// The machine against production code (`nil`) or against a named mutant. `scratchFolder`: an existing
    /// folder for the files its cases make (a worker process's own, removed by its parent), nil for the
    /// machine's default place.
    public func machine(mutant: String? = nil, scratchFolder: String? = nil) -> AnyMachine { make(mutant, scratchFolder) }

    public func mutant(named name: String) -> Mutant? { mutants.first { $0.name == name } }

    /// A fingerprint of the generators: the declared version plus a hash of the traces they make
    /// for four fixed seeds. Any change to generation (weights, ranges, commands) changes it, so
    /// corpus replay can report drift. The traces are generated against the model alone (for
    /// production code that passes them, the same as a full run), so computing it never runs a
    /// system that might crash or hang.
    public var generatorFingerprint: String {
        let machine = self.machine()
        var text = ""
        for seed in UInt64(1)...4 {
            text += machine.generate(Draw(seed: seed), 12).map(\.description).joined(separator: "\n") + "\n"
        }
        return "\(name)/g\(generatorVersion)/\(CaseHash.hex(CaseHash.fnv1a(text)).prefix(8))"
    }
}
