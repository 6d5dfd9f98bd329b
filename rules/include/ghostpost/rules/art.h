// How a piece that no font has is drawn, as the variant that has it describes it: steps of a
// vector drawing in a unit box ([-0.5, 0.5] both ways, y down), in the order a vector renderer
// (cairo) takes them. The rules only describe; render/ draws any such description, so no
// renderer knows a variant's pieces and a new variant's piece needs no change outside its folder.
#pragma once

#include "ghostpost/rules/types.h"

#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace ghostpost::rules {

// A colour of a drawing: one of the seat's palette (the body fills a figure, the ink outlines it,
// the accent marks a detail), or a fixed colour of its own.
struct Paint {
    enum class Role : std::uint8_t { Body, Ink, Accent, Fixed };
    Role role = Role::Ink;
    double r = 0, g = 0, b = 0, a = 1; // for Fixed
};

struct DrawStep {
    enum class Op : std::uint8_t {
        NewPath,
        MoveTo,  // x y
        LineTo,  // x y
        CurveTo, // x1 y1 x2 y2 x3 y3
        Arc,     // cx cy radius from to (radians)
        ClosePath,
        Save,
        Restore,
        Translate, // dx dy
        Scale,     // sx sy
        Source,    // paint
        LineWidth, // width
        RoundJoin,
        RoundCap,
        EvenOdd, // the fill rule that leaves holes where contours overlap
        Winding, // the default fill rule
        Dash,    // on off
        NoDash,
        Fill,
        FillPreserve,
        Stroke,
        StrokePreserve,
    };
    Op op = Op::NewPath;
    double v[6] = {0, 0, 0, 0, 0, 0};
    Paint paint;
};

// A drawing, written the way one draws it: each call appends its step.
class Drawing {
public:
    const std::vector<DrawStep>& steps() const { return steps_; }

    Drawing& new_path() { return add(DrawStep::Op::NewPath); }
    Drawing& move_to(double x, double y) { return add(DrawStep::Op::MoveTo, {x, y}); }
    Drawing& line_to(double x, double y) { return add(DrawStep::Op::LineTo, {x, y}); }
    Drawing& curve_to(double x1, double y1, double x2, double y2, double x3, double y3) {
        return add(DrawStep::Op::CurveTo, {x1, y1, x2, y2, x3, y3});
    }
    Drawing& arc(double cx, double cy, double radius, double from, double to) {
        return add(DrawStep::Op::Arc, {cx, cy, radius, from, to});
    }
    Drawing& close_path() { return add(DrawStep::Op::ClosePath); }
    Drawing& save() { return add(DrawStep::Op::Save); }
    Drawing& restore() { return add(DrawStep::Op::Restore); }
    Drawing& translate(double dx, double dy) { return add(DrawStep::Op::Translate, {dx, dy}); }
    Drawing& scale(double sx, double sy) { return add(DrawStep::Op::Scale, {sx, sy}); }
    Drawing& source(Paint p) {
        add(DrawStep::Op::Source);
        steps_.back().paint = p;
        return *this;
    }
    Drawing& line_width(double w) { return add(DrawStep::Op::LineWidth, {w}); }
    Drawing& round_join() { return add(DrawStep::Op::RoundJoin); }
    Drawing& round_cap() { return add(DrawStep::Op::RoundCap); }
    Drawing& even_odd() { return add(DrawStep::Op::EvenOdd); }
    Drawing& winding() { return add(DrawStep::Op::Winding); }
    Drawing& dash(double on, double off) { return add(DrawStep::Op::Dash, {on, off}); }
    Drawing& no_dash() { return add(DrawStep::Op::NoDash); }
    Drawing& fill() { return add(DrawStep::Op::Fill); }
    Drawing& fill_preserve() { return add(DrawStep::Op::FillPreserve); }
    Drawing& stroke() { return add(DrawStep::Op::Stroke); }
    Drawing& stroke_preserve() { return add(DrawStep::Op::StrokePreserve); }

    // Fills the current path with `inside` and outlines it with `line`, `width` wide.
    Drawing& fill_and_outline(Paint inside, Paint line, double width) {
        return source(inside).fill_preserve().source(line).line_width(width).stroke();
    }

    static Paint body() { return {Paint::Role::Body}; }
    static Paint ink() { return {Paint::Role::Ink}; }
    static Paint accent() { return {Paint::Role::Accent}; }
    static Paint fixed(double r, double g, double b, double a) {
        return {Paint::Role::Fixed, r, g, b, a};
    }

private:
    Drawing& add(DrawStep::Op op, std::initializer_list<double> v = {}) {
        DrawStep s;
        s.op = op;
        int i = 0;
        for (double x : v)
            s.v[i++] = x;
        steps_.push_back(s);
        return *this;
    }
    std::vector<DrawStep> steps_;
};

// A piece a variant adds to chess's six (PieceKind::Extra1...): the letter notation and FEN
// write it with, the word replies call it, and how a board draws it. The variant that adds it
// defines it in its folder; the list of them is rules/variants/registry.cpp's.
struct ExtraPiece {
    PieceKind kind = PieceKind::None;
    char letter = ' ';
    std::string_view name;
    const Drawing* art = nullptr;
};

std::span<const ExtraPiece> extra_pieces();
const ExtraPiece* extra_piece(PieceKind kind); // nullptr for chess's six and None

} // namespace ghostpost::rules
