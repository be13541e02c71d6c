//! Agents for Bones (to come: random, heuristic, solver, PIMC, arena).
