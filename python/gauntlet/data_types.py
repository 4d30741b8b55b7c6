"""TensorProto element types as facts of the raw layout (spec section 3): bits per element."""

# Bits per element of the raw layout, by element type code (8, STRING, has none).
BITS = {1: 32, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32, 7: 64, 9: 8, 10: 16, 11: 64, 12: 32, 13: 64,
        14: 64, 15: 128, 16: 16, 17: 8, 18: 8, 19: 8, 20: 8, 21: 4, 22: 4, 23: 4, 24: 8,
        25: 2, 26: 2, 27: 6, 28: 6}
