#include "drape/body/macro_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "drape/core/exceptions.h"

namespace drape {

namespace {

constexpr const char* kFree[] = {"gender", "muscle", "weight", "height", "proportions"};
constexpr int kN = 5;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Asked measures and the achieved ones in one order: height, bust, waist, hip.
std::vector<double> residuals(const MeasureGoal& g, const BodyMeasurements& m) {
  std::vector<double> r;
  if (g.height) r.push_back(m.height - *g.height);
  if (g.bust) r.push_back(m.bust - *g.bust);
  if (g.waist) r.push_back(m.waist - *g.waist);
  if (g.hip) r.push_back(m.hip - *g.hip);
  return r;
}

double max_abs(const std::vector<double>& r) {
  double m = 0;
  for (double x : r) m = std::max(m, std::abs(x));
  return m;
}

struct Solver {
  MacroTargets& targets;
  const MorphableBody& base;
  const MeasureGoal& goal;
  MacroValues fixed;
  double tolerance;
  int evaluations = 0;

  MacroValues values_of(const Eigen::Matrix<double, kN, 1>& x) const {
    MacroValues v = fixed;
    for (int i = 0; i < kN; ++i) macro_value(v, kFree[i]) = x[i];
    return v;
  }
  std::vector<double> eval(const Eigen::Matrix<double, kN, 1>& x, BodyMeasurements* out = nullptr) {
    ++evaluations;
    const BodyMeasurements m = measure_macro_body(targets, base, values_of(x), out != nullptr);
    if (out) *out = m;
    return residuals(goal, m);
  }

  // Levenberg-Marquardt with a small pull towards the start (the problem has
  // more unknowns than measures) and projection onto the 0..1 box.
  Eigen::Matrix<double, kN, 1> solve(Eigen::Matrix<double, kN, 1> x, int max_iter) {
    const Eigen::Matrix<double, kN, 1> x0 = x;
    std::vector<double> r = eval(x);
    const int m = static_cast<int>(r.size());
    auto cost = [&](const std::vector<double>& rr, const Eigen::Matrix<double, kN, 1>& xx) {
      double c = 0;
      for (double v : rr) c += v * v;
      return c + 1e-6 * (xx - x0).squaredNorm();
    };
    double c = cost(r, x), mu = 1e-4;
    bool stalled = false;
    for (int it = 0; it < max_iter && !stalled && max_abs(r) > 0.5 * tolerance; ++it) {
      Eigen::MatrixXd J(m, kN);
      for (int j = 0; j < kN; ++j) {
        const double h = x[j] > 0.5 ? -0.02 : 0.02;  // step inside the box
        Eigen::Matrix<double, kN, 1> xh = x;
        xh[j] += h;
        const std::vector<double> rh = eval(xh);
        for (int i = 0; i < m; ++i) J(i, j) = (rh[i] - r[i]) / h;
      }
      const Eigen::VectorXd rv = Eigen::Map<const Eigen::VectorXd>(r.data(), m);
      bool improved = false;
      for (int tries = 0; tries < 6 && !improved; ++tries) {
        Eigen::Matrix<double, kN, kN> A = J.transpose() * J;
        A.diagonal().array() += mu + 1e-6;
        const Eigen::Matrix<double, kN, 1> g = J.transpose() * rv + 1e-6 * (x - x0);
        Eigen::Matrix<double, kN, 1> xn = x - A.ldlt().solve(g);
        xn = xn.cwiseMax(0.0).cwiseMin(1.0);
        const std::vector<double> rn = eval(xn);
        const double cn = cost(rn, xn);
        if (cn < c) {
          // Stalled (e.g. pressed against a bound): a step that gains less than 0.5 %.
          stalled = c - cn < 5e-3 * c;
          x = xn;
          r = rn;
          c = cn;
          mu = std::max(mu * 0.3, 1e-7);
          improved = true;
        } else {
          mu *= 10;
        }
      }
      if (!improved) break;
    }
    return x;
  }
};

}  // namespace

MeasureGoal parse_measure_goal(const std::string& text, const std::string& option) {
  MeasureGoal g;
  std::size_t pos = 0;
  if (trim(text).empty())
    throw InvalidInput(option + ": nothing asked (expected e.g. height=170,bust=90,waist=70,hip=96 in cm)");
  while (pos <= text.size()) {
    std::size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    const std::string part = trim(text.substr(pos, end - pos));
    pos = end + 1;
    const auto eq = part.find('=');
    if (eq == std::string::npos)
      throw InvalidInput(option + ": '" + part + "' is not name=centimetres (e.g. waist=70)");
    const std::string name = trim(part.substr(0, eq)), value = trim(part.substr(eq + 1));
    double cm = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), cm);
    if (value.empty() || r.ec != std::errc() || r.ptr != value.data() + value.size() || !std::isfinite(cm) ||
        cm <= 0)
      throw InvalidInput(option + ": " + name + " = '" + value + "' is not a positive number of centimetres");
    std::optional<double>* slot = name == "height"  ? &g.height
                                  : name == "bust"  ? &g.bust
                                  : name == "waist" ? &g.waist
                                  : name == "hip"   ? &g.hip
                                                    : nullptr;
    if (!slot)
      throw InvalidInput(option + ": unknown measure '" + name + "' (expected height, bust, waist, hip)");
    if (*slot) throw InvalidInput(option + ": " + name + " given twice");
    *slot = cm / 100;
    if (end == text.size()) break;
  }
  return g;
}

BodyMeasurements measure_macro_body(MacroTargets& targets, const MorphableBody& base,
                                    const MacroValues& values, bool limbs_and_head) {
  return measure_body(base.body_at(targets.apply(base.base, values)), "macro body", limbs_and_head);
}

MacroFitResult fit_macro_values(MacroTargets& targets, const MorphableBody& base, const MeasureGoal& goal,
                                const MacroValues& start, double tolerance) {
  if (goal.empty()) throw InvalidInput("fit: no measure asked");
  validate_macro_values(start, "fit start");
  Solver s{targets, base, goal, start, tolerance};
  std::vector<Eigen::Matrix<double, kN, 1>> starts;
  Eigen::Matrix<double, kN, 1> x;
  for (int i = 0; i < kN; ++i) x[i] = macro_value(start, kFree[i]);
  starts.push_back(x);
  for (double gender : {0.0, 1.0}) {
    Eigen::Matrix<double, kN, 1> y = x;
    y[0] = gender;
    starts.push_back(y);
  }
  MacroFitResult best;
  best.max_residual = std::numeric_limits<double>::infinity();
  for (const auto& x_start : starts) {
    const Eigen::Matrix<double, kN, 1> sol = s.solve(x_start, 25);
    MacroFitResult res;
    res.values = s.values_of(sol);
    res.max_residual = max_abs(s.eval(sol, &res.achieved));
    if (res.max_residual < best.max_residual) best = res;
    if (best.max_residual <= 0.5 * tolerance) break;
  }
  best.reached = best.max_residual <= tolerance;
  best.evaluations = s.evaluations;
  return best;
}

}  // namespace drape
