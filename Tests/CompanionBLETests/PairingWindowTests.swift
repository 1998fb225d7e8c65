import CompanionBLE
import TestKit
import Testing

/// The pairing window as a value: opened with a code at an instant, driven by writes, reads
/// and ticks; each step's actions checked.
@Suite("Pairing window", .oneAtATime)
struct PairingWindowTests {
    let start = ContinuousClock.now
    let phone = "/org/bluez/hci0/dev_11_22_33_44_55_66"
    let stranger = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF"
    let code = PairingCode(text: "407192")!
    let wrong = PairingCode(text: "000000")!

    @Test("opening speaks the code, schedules the close and notifies; the state never shows the code")
    func opens() {
        var window = PairingWindow(openFor: .seconds(120))
        #expect(window.status(for: phone) == 0 && window.stateText == "closed")
        let actions = window.open(code: code, now: start)
        #expect(actions == [.event(.opened(closesIn: .seconds(120))), .speak(code), .closeAt(start + .seconds(120)), .notifyState])
        #expect(window.status(for: phone) == 1 && window.stateText == "open")
        #expect(!window.stateText.contains("407192"))
        #expect(code.spoken == "Your pairing code is 4, 0, 7, 1, 9, 2. Again: 4, 0, 7, 1, 9, 2.")
    }

    @Test("the right code, then the key once: the phone is paired (status 2) and the window closes")
    func pairs() throws {
        var window = PairingWindow()
        _ = window.open(code: code, now: start)
        let (refusedEarly, _) = window.releaseKey(to: phone, now: start + .seconds(1))
        #expect(throws: GATTError.self) { try refusedEarly.get() }
        let (written, writeActions) = window.submit(code, from: phone, now: start + .seconds(10))
        try written.get()
        #expect(writeActions == [.event(.attempt(device: phone, accepted: true, attemptsLeft: 5)), .notifyState])
        #expect(window.stateText == "accepted")
        let (otherRead, _) = window.releaseKey(to: stranger, now: start + .seconds(11))
        #expect(otherRead.failureKind == .notPermitted)
        let (read, readActions) = window.releaseKey(to: phone, now: start + .seconds(12))
        try read.get()
        #expect(readActions == [.event(.keyReleased(device: phone)), .event(.closed(.keyReleased)), .notifyState])
        #expect(window.status(for: phone) == 2 && window.status(for: stranger) == 0 && window.isPaired(phone))
        let (again, _) = window.releaseKey(to: phone, now: start + .seconds(13))
        #expect(again.failureKind == .notPermitted)
    }

    @Test("five wrong codes close the window; each attempt is an event with the attempts left")
    func wrongCodes() {
        var window = PairingWindow()
        _ = window.open(code: code, now: start)
        var lefts: [Int] = []
        var last: [PairingAction] = []
        for attempt in 1...5 {
            let (result, actions) = window.submit(wrong, from: stranger, now: start + .seconds(Int64(attempt)))
            #expect(result.failureKind == .notAuthorized)
            for case .event(.attempt(_, false, let left)) in actions { lefts.append(left) }
            last = actions
        }
        #expect(lefts == [4, 3, 2, 1, 0])
        #expect(last.contains(.event(.closed(.tooManyAttempts))))
        #expect(window.stateText == "closed")
        let (late, _) = window.submit(code, from: phone, now: start + .seconds(7))
        #expect(late.failureKind == .notPermitted)
    }

    @Test("a window left alone closes at its deadline, not before; a code after it is refused")
    func timesOut() {
        var window = PairingWindow(openFor: .seconds(60))
        _ = window.open(code: code, now: start)
        #expect(window.tick(now: start + .seconds(59)) == [])
        #expect(window.tick(now: start + .seconds(60)) == [.event(.closed(.timedOut)), .notifyState])
        let (late, _) = window.submit(code, from: phone, now: start + .seconds(61))
        #expect(late.failureKind == .notPermitted)
    }

    @Test("an accepted phone that does not read the key in time loses it")
    func acceptedTimesOut() throws {
        var window = PairingWindow(openFor: .seconds(60))
        _ = window.open(code: code, now: start)
        try window.submit(code, from: phone, now: start + .seconds(5)).0.get()
        let (read, actions) = window.releaseKey(to: phone, now: start + .seconds(61))
        #expect(read.failureKind == .notPermitted)
        #expect(actions.contains(.event(.closed(.timedOut))))
    }

    @Test("reopening replaces the code: the old one no longer pairs")
    func reopens() {
        var window = PairingWindow()
        _ = window.open(code: code, now: start)
        let fresh = PairingCode(text: "123456")!
        let actions = window.open(code: fresh, now: start + .seconds(5))
        #expect(actions.first == .event(.closed(.reopened)))
        let (old, _) = window.submit(code, from: phone, now: start + .seconds(6))
        #expect(old.failureKind == .notAuthorized)
    }

    @Test("the glasses' button asks without replacing: a closed window opens; an open or accepted one stays as it is, its code good, and says how long it has left")
    func opensUnlessOpen() throws {
        var window = PairingWindow(openFor: .seconds(120))
        let opened = window.openUnlessOpen(code: code, now: start)
        #expect(opened == [.event(.opened(closesIn: .seconds(120))), .speak(code), .closeAt(start + .seconds(120)), .notifyState])
        let fresh = PairingCode(text: "123456")!
        let before = window
        #expect(window.openUnlessOpen(code: fresh, now: start + .seconds(30)) == [.event(.stillOpen(closesIn: .seconds(90)))])
        #expect(window == before)
        try window.submit(code, from: phone, now: start + .seconds(40)).0.get()
        #expect(window.openUnlessOpen(code: fresh, now: start + .seconds(50)) == [.event(.stillOpen(closesIn: .seconds(70)))])
        #expect(window.stateText == "accepted")
        // Past its deadline, the old window closes first and a fresh one opens.
        let late = start + .seconds(121)
        #expect(
            window.openUnlessOpen(code: fresh, now: late)
                == [.event(.closed(.timedOut)), .notifyState, .event(.opened(closesIn: .seconds(120))), .speak(fresh), .closeAt(late + .seconds(120)), .notifyState])
    }

    @Test("codes from a seeded source are six digits, fresh each time, and leading zeros are kept")
    func randomCodes() {
        var generator = SeededGenerator(seed: 27)
        let codes = (0..<200).map { _ in PairingCode.random(using: &generator).digits }
        #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
        #expect(Set(codes).count > 190)
        #expect(codes.contains { $0.hasPrefix("0") })
        #expect(PairingCode(text: "12345") == nil && PairingCode(text: "12345a") == nil && PairingCode(text: "１２３４５６") == nil)
    }
}

/// A small deterministic generator (SplitMix64) for the codes.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Result where Failure == GATTError {
    var failureKind: GATTError.Kind? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }
}
