#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An outcome as one line of text, for the line protocols between a search and the child
/// processes that run its cases (`graph-fuzz worker`, `GraphFuzzTest`'s process isolation).
package enum OutcomeLine {
    package static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.append(character)
            }
        }
        return out
    }

    package static func unescape(_ text: Substring) -> String {
        guard text.contains("\\") else { return String(text) }
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// `pass`, `rejected`, `fail<TAB>KIND<TAB>RULE<TAB>DETAIL<TAB>STEP<TAB>MESSAGE`, or
    /// `harness<TAB>STEP<TAB>STEPTRACE<TAB>PLACE<TAB>MESSAGE` (a `HarnessFault`; `-` for no step).
    package static func encode(_ outcome: Outcome) -> String {
        switch outcome {
        case .pass: return "pass"
        case .rejected: return "rejected"
        case .fail(let failure):
            return ["fail", failure.kind.rawValue, escape(failure.rule), escape(failure.detail),
                    failure.step.map(String.init) ?? "-", escape(failure.message)].joined(separator: "\t")
        case .harnessFault(let fault):
            return ["harness", fault.step.map(String.init) ?? "-", escape(fault.stepTrace ?? ""), escape(fault.place),
                    escape(fault.message)].joined(separator: "\t")
        }
    }

    package static func decodeOutcome(_ text: Substring) -> Outcome? {
        if text == "pass" { return .pass }
        if text == "rejected" { return .rejected }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        if fields.count == 5, fields[0] == "harness" {
            let step = Int(fields[1])
            return .harnessFault(HarnessFault(message: unescape(fields[4]), place: unescape(fields[3]), step: step,
                                              stepTrace: step == nil ? nil : unescape(fields[2])))
        }
        guard fields.count == 6, fields[0] == "fail", let kind = FailureKind(rawValue: String(fields[1])) else { return nil }
        return .fail(Failure(rule: unescape(fields[2]), kind: kind, message: unescape(fields[5]), detail: unescape(fields[3]),
                             step: Int(fields[4])))
    }
}

/// Writes `text` with `write(2)`, unbuffered, all of it: a line written just before a trap is
/// never lost.
package func writeUnbuffered(to descriptor: Int32 = STDOUT_FILENO, _ text: String) {
    var text = text
    text.withUTF8 { writeUnbuffered(to: descriptor, UnsafeRawBufferPointer($0)) }
}

/// Writes `bytes` with `write(2)`, unbuffered, all of them.
package func writeUnbuffered(to descriptor: Int32 = STDOUT_FILENO, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
