import Notifications
import Testing

/// What a step says, to compare.
private func described(_ step: ServerActivation.Step) -> String {
  switch step {
  case .call(let autoStart): "call(autoStart: \(autoStart))"
  case .waitForServer(let until): "waitForServer(until: \(until))"
  }
}

/// When a call may have the bus start a notification server: the decision alone, every case.
@Suite struct ServerActivationTests {
  let start = ContinuousClock.now

  @Test("A command run by hand always lets the bus start a server")
  func alwaysStarts() {
    for serverRuns in [false, true] {
      for purpose in [ServerActivation.Purpose.query, .post] {
        #expect(
          described(ServerActivation.always.step(now: start, serverRuns: serverRuns, purpose: purpose))
            == described(.call(autoStart: true)))
      }
    }
  }

  @Test("During the desktop's wait no call carries the auto-start flag")
  func noFlagDuringTheWait() {
    let activation = ServerActivation.desktopWait(from: start, bound: .seconds(20))
    for offset in [Duration.zero, .seconds(1), .seconds(19), .milliseconds(19_999)] {
      let now = start + offset
      #expect(
        described(activation.step(now: now, serverRuns: false, purpose: .query)) == described(.call(autoStart: false)))
      #expect(
        described(activation.step(now: now, serverRuns: true, purpose: .query)) == described(.call(autoStart: false)))
      #expect(
        described(activation.step(now: now, serverRuns: true, purpose: .post)) == described(.call(autoStart: false)))
      // A post with no server waits for the desktop's, until the wait's end at the latest.
      #expect(
        described(activation.step(now: now, serverRuns: false, purpose: .post))
          == described(.waitForServer(until: start + .seconds(20))))
    }
  }

  @Test("From the wait's end on, calls may start a server again")
  func flagAfterTheWait() {
    let activation = ServerActivation.desktopWait(from: start, bound: .seconds(20))
    for offset in [Duration.seconds(20), .seconds(21), .seconds(3600)] {
      for serverRuns in [false, true] {
        for purpose in [ServerActivation.Purpose.query, .post] {
          #expect(
            described(activation.step(now: start + offset, serverRuns: serverRuns, purpose: purpose))
              == described(.call(autoStart: true)))
        }
      }
    }
  }

  @Test("The service's default bound is 20 seconds")
  func defaultBound() {
    #expect(ServerActivation.desktopWait(from: start).waitEnds == start + .seconds(20))
    #expect(ServerActivation.always.waitEnds == nil)
  }
}
