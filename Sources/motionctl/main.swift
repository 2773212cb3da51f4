import MotionAgent
print("motionctl: not built yet")
