import Testing

/// Every test that runs the real `motion-agent` against a real mosquitto, one at a time: each starts a
/// broker and a (debug-built) agent sampling at 200 Hz, and on a 2-core machine a dozen of them at once
/// would starve each other and turn timing checks into measurements of the test runner.
@Suite(.serialized) struct AgentEndToEndTests {}
