import GraphFuzzEngine
import GraphFuzzTesting
import Testing

// The guide's example: an actor with a reentrancy bug, and the machine that finds it.

/// A bank account that asks a fraud check before it pays out.
actor Account {
    private(set) var balance = 0
    private let fraudCheck = FraudCheck()

    func deposit(_ amount: Int) -> Int {
        balance += amount
        return balance
    }

    /// Pays out `amount` when the balance covers it and the fraud check approves.
    func withdraw(_ amount: Int) async -> Bool {
        guard balance >= amount else { return false }                   // check
        guard await fraudCheck.approves(amount) else { return false }   // suspend: other calls run here
        balance -= amount                                               // act on a balance that may have changed
        return true
    }
}

actor FraudCheck {
    func approves(_ amount: Int) -> Bool { amount <= 1_000 }
}

/// The specification is the balance; every action may run concurrently with the others.
struct AccountMachine: StateMachine, Sendable {
    func makeModel(_ config: NoConfig) -> Int { 0 }
    func makeSystem(_ config: NoConfig) -> Account { Account() }

    var actions: [Action<Self>] {
        [.concurrent("deposit", arguments: { args, _ in args.int("amount", in: 1...100) },
                     predict: { amount, balance in
                         balance += amount
                         return Prediction(balance, rule: "deposit adds")
                     },
                     perform: { amount, account in await account.deposit(amount) }),
         .concurrent("withdraw", arguments: { args, _ in args.int("amount", in: 1...100) },
                     predict: { amount, balance in
                         guard balance >= amount else { return Prediction(false, rule: "no overdraft") }
                         balance -= amount
                         return Prediction(true, rule: "withdraw pays")
                     },
                     perform: { amount, account in await account.withdraw(amount) }),
         .concurrent("balance", predict: { balance in Prediction(balance, rule: "balance") },
                     perform: { account in await account.balance })]
    }
}

@Suite("the guide's reentrancy example")
struct ReentrancyGuideExample {
    /// The guide's test is `GraphFuzzTest.check(AccountMachine())`; here its failure is expected, and what it
    /// reports is checked: two withdrawals of what one deposit left, both paid, in FIFO order.
    @Test func withdrawalsNeverOverdraw() throws {
        var result: CheckResult?
        withKnownIssue { result = GraphFuzzTest.check(AccountMachine()) }
        let check = try #require(result)
        let failure = try #require(check.failure)
        #expect(check.failedRules == ["no overdraft"])
        #expect(failure.failure.kind == .linearizability)
        #expect(failure.failure.message.hasPrefix("concurrently(A: withdraw(amount: 1), B: withdraw(amount: 1)): no order of A and B explains what they observed"))
        #expect(failure.failure.message.contains("observed: A → true, B → true"))
        let record = try #require(check.failures.first?.result.counterexample)
        #expect(record.steps.map(\.description) == ["deposit(amount: 1)", "concurrently(A: withdraw(amount: 1), B: withdraw(amount: 1))"])
    }
}
