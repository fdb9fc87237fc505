/// The rules whose function decided a part of one mapping, each once, in the order they decided (for coverage:
/// `MapperModel.mapDeciding`). Off (`recording == false`) for the mappings that only count what they create.
struct DecidingRules {
    let recording: Bool
    private(set) var rules: [String] = []

    init(recording: Bool = false) { self.recording = recording }

    mutating func add(_ rule: String) {
        if !rules.contains(rule) { rules.append(rule) }
    }

    mutating func add(_ list: [String]) {
        for rule in list { add(rule) }
    }
}
