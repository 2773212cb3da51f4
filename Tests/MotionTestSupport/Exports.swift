// The private mosquitto, its certificates and the child-process helper live in PrivateBroker (the
// benchmarks use them too); tests get them with the rest of the test support.
@_exported import PrivateBroker
