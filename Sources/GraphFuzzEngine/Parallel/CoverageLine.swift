extension Coverage {
    /// The coverage as one line of text for a worker's answer: `CASES<TAB>ACTIONS<TAB>PREDICTIONS<TAB>INVARIANTS`,
    /// actions as `name,ran,held,failed` and rule counts as `rule=count`, each list `;`-separated
    /// (names and rule ids hold none of `\t,;=`), rules sorted.
    package var line: String {
        let actions = self.actions.map { "\($0.name),\($0.ran),\($0.held),\($0.failed)" }.joined(separator: ";")
        let predictions = sortedPredictions.map { "\($0.rule)=\($0.count)" }.joined(separator: ";")
        let invariants = sortedInvariants.map { "\($0.rule)=\($0.count)" }.joined(separator: ";")
        return "\(cases)\t\(actions)\t\(predictions)\t\(invariants)"
    }

    /// Reads `line`; nil when it is not one.
    package init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 4, let cases = Int(fields[0]) else { return nil }
        var actions: [ActionCount] = []
        for entry in fields[1].split(separator: ";") {
            let parts = entry.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 4, let ran = Int(parts[1]), let held = Int(parts[2]), let failed = Int(parts[3]) else { return nil }
            actions.append(ActionCount(name: String(parts[0]), ran: ran, held: held, failed: failed))
        }
        func counts(_ field: Substring) -> [String: Int]? {
            var out: [String: Int] = [:]
            for entry in field.split(separator: ";") {
                let parts = entry.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2, let count = Int(parts[1]) else { return nil }
                out[String(parts[0]), default: 0] += count
            }
            return out
        }
        guard let predictions = counts(fields[2]), let invariants = counts(fields[3]) else { return nil }
        self.init(actions: actions, predictions: predictions, invariants: invariants, cases: cases)
    }
}
