import GraphFuzzEngine

// The guide's example: an actor with a reentrancy bug, and the machine that finds it. docs/guide.md prints the
// code between the markers as it is here (GuideTests checks it).

/// A bank account that asks a fraud check before it pays out.
public actor Account {
    public private(set) var balance = 0
    private let fraudCheck = FraudCheck()

    public init() {}

    public func deposit(_ amount: Int) -> Int {
        balance += amount
        return balance
    }

    /// Pays out `amount` when the balance covers it and the fraud check approves.
    public func withdraw(_ amount: Int) async -> Bool {
        guard balance >= amount else { return false }                   // check
        guard await fraudCheck.approves(amount) else { return false }   // suspend: other calls run here
        balance -= amount                                               // act on a balance that may have changed
        return true
    }
}

/// Approves a payment and counts the checks; awaiting it suspends the account.
public actor FraudCheck {
    public private(set) var checks = 0

    public func approves(_ amount: Int) -> Bool {
        checks += 1
        return amount <= 1_000
    }
}

/// The specification is the balance; every action may run concurrently with the others.
public struct AccountMachine: StateMachine, Sendable {
    /// How concurrent steps are drawn and scheduled: PCT (depth 2, 64 steps), with which the guide's walkthrough was
    /// written (seed 1 finds the bug at case 6 and shrinks it to one deposit and two withdrawals), unless a benchmark
    /// compares strategies. Under the default portfolio seed 1 shrinks to a longer case (three concurrent deposits,
    /// withdrawals of 1 and 3): a limit of the shrinker, which does not lower a later argument while it deletes branches.
    public var concurrentSteps = ConcurrentSteps(strategy: .pct(depth: 2, expectedSteps: 64))

    public init() {}

    public func makeModel(_ config: NoConfig) -> Int { 0 }
    public func makeSystem(_ config: NoConfig) -> Account { Account() }

    public var actions: [Action<Self>] {
        [.concurrent("deposit", arguments: { args, _ in args.int("amount", in: 1...100) },
                     predict: { amount, balance in
                         balance += amount
                         return Prediction(balance, rule: "deposit adds")
                     },
                     perform: { amount, account in await account.deposit(amount) }),
// BEGIN GUIDE: account withdraw
         .concurrent("withdraw", arguments: { args, _ in args.int("amount", in: 1...100) },
                     predict: { amount, balance in
                         guard balance >= amount else { return Prediction(false, rule: "no overdraft") }
                         balance -= amount
                         return Prediction(true, rule: "withdraw pays")
                     },
                     perform: { amount, account in await account.withdraw(amount) }),
// END GUIDE: account withdraw
         .concurrent("balance", predict: { balance in Prediction(balance, rule: "balance") },
                     perform: { account in await account.balance })]
    }
}
