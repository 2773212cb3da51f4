#ifndef MOTIONBRIDGE_FUZZER_ENTRY_H
#define MOTIONBRIDGE_FUZZER_ENTRY_H
/* SwiftPM names an executable's entry point <module>_main and aliases main to it, which would collide
   with libFuzzer's own main. Each target's entry point calls this instead: libFuzzer's driver, run on
   the target's LLVMFuzzerTestOneInput. */
int motionbridge_fuzzer_main(int argc, char **argv);
#endif
