import Foundation
import Testing
@testable import PersistentCache

/// The FIPS 180-4 example vectors.
struct SHA256Tests {
    @Test func emptyString() {
        #expect(SHA256.hexDigest(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(SHA256.hexDigest(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Data(message.utf8).count * 8 == 448)
        #expect(SHA256.hexDigest(of: Data(message.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func oneMillionA() {
        #expect(SHA256.hexDigest(of: Data(repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesAgreeWithOneShot() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var hasher = SHA256()
        for cut in stride(from: 0, to: 1000, by: 37) { hasher.update(data: data[cut..<Swift.min(cut + 37, 1000)]) }
        #expect(hasher.finalize() == SHA256.hash(data: data))
    }
}
