// Placeholder; replaced by the target's first real file.
