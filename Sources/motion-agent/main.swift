import MotionAgent
print("motion-agent: not built yet")
