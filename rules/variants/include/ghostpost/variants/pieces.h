// The pieces the variants add to chess's six, by the names their variants give them. Which extra
// kind each one is, its letter, its word and its art are the variants' (registry.cpp's list of
// them); the shared code knows only PieceKind::Extra1 and the like.
#pragma once

#include "ghostpost/rules/types.h"

namespace ghostpost::rules::pieces {

// Ghostarelay's three.
inline constexpr PieceKind ghost = PieceKind::Extra1;
inline constexpr PieceKind relay = PieceKind::Extra2;
inline constexpr PieceKind warlord = PieceKind::Extra3;
// Phantom Chess's Phantom: the chess core's knight-and-ferz piece, the one a hand can hold.
inline constexpr PieceKind phantom = PieceKind::Extra4;

} // namespace ghostpost::rules::pieces
