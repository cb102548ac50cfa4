//! ksem CUDA backend.
