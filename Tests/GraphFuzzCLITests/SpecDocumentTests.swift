import Foundation
import GraphFuzzCLI
import Testing

@Suite("docs/spec.md")
struct SpecDocumentTests {
    @Test("docs/spec.md holds exactly the rules and mutants the code declares (run docs/regenerate.sh)")
    func upToDate() throws {
        let text = try String(contentsOfFile: Package.root + "/docs/spec.md", encoding: .utf8)
        let begin = try #require(text.range(of: SpecDocument.beginMarker))
        let end = try #require(text.range(of: SpecDocument.endMarker))
        let generated = String(text[begin.upperBound..<end.lowerBound]).trimmingCharacters(in: .newlines)
        #expect(generated == SpecDocument.markdown(.standard).trimmingCharacters(in: .newlines))
    }

    @Test("every mutant names a rule its target declares; a rule id names one rule (targets that share it declare the same)")
    func mutantsNameRules() {
        var statements: [String: String] = [:]
        for target in Registry.standard.targets {
            let rules = target.rules.map(\.id)
            #expect(Set(rules).count == rules.count, "\(target.name): duplicate rule ids: \(rules)")
            for rule in target.rules {
                let known = statements[rule.id] ?? rule.statement
                #expect(known == rule.statement, "\(target.name): rule \(rule.id) differs from another target's rule \(rule.id)")
                statements[rule.id] = known
            }
            for mutant in target.mutants {
                #expect(rules.contains(mutant.rule), "\(target.name): mutant \(mutant.name) names unknown rule \(mutant.rule)")
            }
        }
    }
}
