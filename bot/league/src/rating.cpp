#include "ghostpost/league/rating.h"

#include <cmath>
#include <numbers>

namespace ghostpost::bot {
namespace {
constexpr double scale = 173.7178; // Glicko-2 works on (r - 1500) / 173.7178
constexpr double epsilon = 0.000001;

double g(double phi) {
    return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}
double expected(double mu, double mu_j, double phi_j) {
    return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}
} // namespace

Rating glicko2_update(const Rating& player, const std::vector<RatedResult>& results, double tau) {
    const double mu = (player.rating - 1500.0) / scale;
    const double phi = player.deviation / scale;
    const double sigma = player.volatility;
    if (results.empty()) {
        const double grown = std::sqrt(phi * phi + sigma * sigma);
        return {player.rating, grown * scale, sigma};
    }
    double v_inv = 0.0, delta_sum = 0.0;
    for (const auto& r : results) {
        const double mu_j = (r.opponent.rating - 1500.0) / scale;
        const double phi_j = r.opponent.deviation / scale;
        const double e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j) * g(phi_j) * e * (1.0 - e);
        delta_sum += g(phi_j) * (r.score - e);
    }
    const double v = 1.0 / v_inv;
    const double delta = v * delta_sum;

    // The new volatility: the root of f by the Illinois variant of regula falsi (step 5).
    const double a = std::log(sigma * sigma);
    auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double A = a, B;
    if (delta * delta > phi * phi + v) {
        B = std::log(delta * delta - phi * phi - v);
    } else {
        double k = 1.0;
        while (f(a - k * tau) < 0.0)
            k += 1.0;
        B = a - k * tau;
    }
    double fA = f(A), fB = f(B);
    while (std::fabs(B - A) > epsilon) {
        const double C = A + (A - B) * fA / (fB - fA);
        const double fC = f(C);
        if (fC * fB <= 0.0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    const double new_sigma = std::exp(A / 2.0);
    const double phi_star = std::sqrt(phi * phi + new_sigma * new_sigma);
    const double new_phi = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double new_mu = mu + new_phi * new_phi * delta_sum;
    return {new_mu * scale + 1500.0, new_phi * scale, new_sigma};
}

} // namespace ghostpost::bot
