extension Arguments {
    /// A whole command of a type that writes its own trace (`TraceCodable`), for a machine whose steps are
    /// values of one command type drawn by generators of their own (a response body drawn as a structure, not
    /// value by value): drawn by `generate` (nil: no command fits, `unavailable`); replaying, read back from
    /// the trace, and `unavailable` unless `applies` accepts it in the state the earlier steps left (a drawn
    /// command is made for that state, so it is not asked then).
    ///
    ///     Action("get", weight: 24,
    ///            arguments: { args, model in
    ///                try args.coded(applies: { applies($0, model) }) { draw in .get(key: draw.int(in: 0...3)) }
    ///            },
    ///            predict: predict, perform: perform)
    @inlinable
    public mutating func coded<C: TraceCodable>(applies: (C) -> Bool, _ generate: (Draw) -> C?) throws(Unavailable) -> C {
        let command = try coded(generate)
        if isReplaying { try require(applies(command)) }
        return command
    }
}
