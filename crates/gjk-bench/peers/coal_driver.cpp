// coal on the gjk benchmark workloads: reads the pairs written by `peers pairs` (see
// crates/gjk-bench/src/peers.rs for both file formats), times coal's one-shot queries
// (`coal::collide`, `coal::distance`) and its cached functors (`ComputeCollision`,
// `ComputeDistance`, built once per pair before the timed loop), and writes per
// (workload, query, method) the best time per query and the answers.
//
// Built and run by scripts/bench-peers.sh (never by `cargo test`):
//   coal_driver PAIRS_FILE ANSWERS_FILE [ROUNDS]
//
// Timing is the loop style of the Rust side (crates/gjk-bench/src/bin/peers.rs): one pass over
// all pairs, repeated so that a round lasts about a millisecond; the best of ROUNDS rounds
// (the machine is shared, and the minimum is the least disturbed estimate).

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <coal/collision.h>
#include <coal/distance.h>
#include <coal/shape/convex.h>
#include <coal/shape/geometric_shapes.h>

namespace {

using coal::Vec3s;
using Geometry = std::shared_ptr<coal::CollisionGeometry>;

// Keeps `value` alive for the optimiser without costing more than a register move.
template <class T>
inline void keep(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

struct Pair {
  Geometry a, b;
  coal::Transform3s pose_a, pose_b;
};

struct Workload {
  std::string name;
  std::vector<Pair> pairs;
};

double number(std::istream& in) {
  double x;
  if (!(in >> x)) throw std::runtime_error("pairs file: expected a number");
  return x;
}

// Our capsules, cylinders and cones run along their local y axis, coal's along z: their coal
// pose is ours times the quarter turn about x that takes z to y.
coal::Matrix3s z_to_y() {
  coal::Matrix3s m;
  m << 1, 0, 0, 0, 0, 1, 0, -1, 0;
  return m;
}

// Reads one shape; `along_y` tells whether its pose needs the z-to-y turn.
Geometry shape(std::istream& in, bool& along_y) {
  std::string kind;
  in >> kind;
  along_y = kind == "capsule" || kind == "cylinder" || kind == "cone";
  if (kind == "box") {
    double x = number(in), y = number(in), z = number(in);
    return std::make_shared<coal::Box>(2 * x, 2 * y, 2 * z);
  }
  if (kind == "sphere") return std::make_shared<coal::Sphere>(number(in));
  if (along_y) {
    double h = number(in), r = number(in);
    if (kind == "capsule") return std::make_shared<coal::Capsule>(r, 2 * h);
    if (kind == "cylinder") return std::make_shared<coal::Cylinder>(r, 2 * h);
    return std::make_shared<coal::Cone>(r, 2 * h);
  }
  if (kind == "hull") {
    double count = number(in);
    // qhull needs a solid: at least 4 points.
    if (!(count >= 4 && count <= 1e6 && count == std::floor(count)))
      throw std::runtime_error("pairs file: a hull needs a whole number of points, at least 4");
    auto n = static_cast<unsigned>(count);
    auto points = std::make_shared<std::vector<Vec3s>>();
    for (unsigned i = 0; i < n; ++i) {
      double x = number(in), y = number(in), z = number(in);
      points->emplace_back(x, y, z);
    }
    // keepTriangles = false: the hull's vertices and neighbours, what coal's GJK support uses.
    return Geometry(coal::ConvexBase::convexHull(points, n, false, nullptr));
  }
  throw std::runtime_error("pairs file: unknown shape " + kind);
}

coal::Transform3s pose(std::istream& in, bool along_y) {
  double qx = number(in), qy = number(in), qz = number(in), qw = number(in);
  Vec3s t;
  t << number(in), number(in), number(in);
  coal::Matrix3s r = coal::Quatf(qw, qx, qy, qz).normalized().toRotationMatrix();
  if (along_y) r = r * z_to_y();
  return coal::Transform3s(r, t);
}

std::vector<Workload> read_pairs(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  std::vector<Workload> workloads;
  std::string word;
  while (in >> word) {
    if (word != "workload") throw std::runtime_error("pairs file: expected 'workload'");
    Workload w;
    std::size_t count;
    if (!(in >> w.name >> count)) throw std::runtime_error("pairs file: bad workload header");
    for (std::size_t i = 0; i < count; ++i) {
      Pair p;
      bool along_y;
      p.a = shape(in, along_y);
      p.pose_a = pose(in, along_y);
      p.b = shape(in, along_y);
      p.pose_b = pose(in, along_y);
      w.pairs.push_back(std::move(p));
    }
    workloads.push_back(std::move(w));
  }
  return workloads;
}

// The best time per query over `rounds` rounds; `batch` answers every pair once.
double best_ns(const std::function<void()>& batch, std::size_t pairs, int rounds) {
  using clock = std::chrono::steady_clock;
  auto seconds = [&](int reps) {
    auto start = clock::now();
    for (int i = 0; i < reps; ++i) batch();
    return std::chrono::duration<double>(clock::now() - start).count();
  };
  // Repeat the batch so that a round lasts about 1 ms: long against the clock's resolution,
  // short against a scheduler time slice, so that on a loaded machine some rounds run
  // uninterrupted.
  int reps = static_cast<int>(std::ceil(0.001 / std::max(seconds(1), 1e-7)));
  double best = INFINITY;
  for (int r = 0; r < rounds; ++r) best = std::min(best, seconds(reps) / reps);
  return best * 1e9 / static_cast<double>(pairs);
}

// One answers line: workload, query, method, time, values.
void emit(std::ostream& out, const Workload& w, const char* query, const char* method, double ns,
          const std::vector<double>& values) {
  out << w.name << ' ' << query << ' ' << method << ' ' << ns;
  for (double v : values) out << ' ' << v;
  out << '\n';
}

void intersects(std::ostream& out, const Workload& w, int rounds) {
  // NO_REQUEST: the verdict only, no contact details.
  const coal::CollisionRequest request(coal::NO_REQUEST, 1);
  coal::CollisionResult result;
  std::vector<std::unique_ptr<coal::ComputeCollision>> cached;
  for (const Pair& p : w.pairs)
    cached.push_back(std::make_unique<coal::ComputeCollision>(p.a.get(), p.b.get()));
  auto one_shot = [&](const Pair& p) {
    result.clear();
    return coal::collide(p.a.get(), p.pose_a, p.b.get(), p.pose_b, request, result) > 0;
  };
  auto functor = [&](std::size_t i) {
    result.clear();
    const Pair& p = w.pairs[i];
    return (*cached[i])(p.pose_a, p.pose_b, request, result) > 0;
  };
  std::vector<double> one, two;
  for (std::size_t i = 0; i < w.pairs.size(); ++i) {
    one.push_back(one_shot(w.pairs[i]));
    two.push_back(functor(i));
  }
  double ns_one = best_ns([&] { for (const Pair& p : w.pairs) keep(one_shot(p)); },
                          w.pairs.size(), rounds);
  double ns_two = best_ns(
      [&] { for (std::size_t i = 0; i < w.pairs.size(); ++i) keep(functor(i)); },
      w.pairs.size(), rounds);
  emit(out, w, "intersects", "coal", ns_one, one);
  emit(out, w, "intersects", "coal_cached", ns_two, two);
}

void distance(std::ostream& out, const Workload& w, int rounds) {
  // coal's defaults: nearest points and signed distance (EPA when the shapes overlap). The
  // answer written is max(distance, 0), the convention of the other libraries. The third run,
  // without nearest points or signed distance, asks for what our `distance` answers.
  const coal::DistanceRequest request;
  const coal::DistanceRequest unsigned_request(false, false);
  coal::DistanceResult result;
  std::vector<std::unique_ptr<coal::ComputeDistance>> cached;
  for (const Pair& p : w.pairs)
    cached.push_back(std::make_unique<coal::ComputeDistance>(p.a.get(), p.b.get()));
  auto one_shot = [&](const Pair& p) {
    result.clear();
    return coal::distance(p.a.get(), p.pose_a, p.b.get(), p.pose_b, request, result);
  };
  auto functor = [&](std::size_t i, const coal::DistanceRequest& r) {
    result.clear();
    const Pair& p = w.pairs[i];
    return (*cached[i])(p.pose_a, p.pose_b, r, result);
  };
  std::vector<double> one, two, three;
  for (std::size_t i = 0; i < w.pairs.size(); ++i) {
    one.push_back(std::max(one_shot(w.pairs[i]), 0.0));
    two.push_back(std::max(functor(i, request), 0.0));
    three.push_back(std::max(functor(i, unsigned_request), 0.0));
  }
  auto all_cached = [&](const coal::DistanceRequest& r) {
    return [&] { for (std::size_t i = 0; i < w.pairs.size(); ++i) keep(functor(i, r)); };
  };
  double ns_one = best_ns([&] { for (const Pair& p : w.pairs) keep(one_shot(p)); },
                          w.pairs.size(), rounds);
  double ns_two = best_ns(all_cached(request), w.pairs.size(), rounds);
  double ns_three = best_ns(all_cached(unsigned_request), w.pairs.size(), rounds);
  emit(out, w, "distance", "coal", ns_one, one);
  emit(out, w, "distance", "coal_cached", ns_two, two);
  emit(out, w, "distance", "coal_cached_unsigned", ns_three, three);
}

// Appends a contact as `depth nx ny nz` (`0 0 0 0` for none), the normal from A toward B.
void contact_values(const coal::CollisionResult& result, std::vector<double>& values) {
  if (!result.isCollision()) {
    values.insert(values.end(), {0, 0, 0, 0});
    return;
  }
  const coal::Contact& c = result.getContact(0);
  // coal stores the signed distance (negative when the shapes overlap) in
  // `penetration_depth`, and `normal` points from o1 to o2.
  values.insert(values.end(), {-c.penetration_depth, c.normal[0], c.normal[1], c.normal[2]});
}

void contact(std::ostream& out, const Workload& w, int rounds) {
  const coal::CollisionRequest request(coal::CONTACT, 1);
  coal::CollisionResult result;
  std::vector<std::unique_ptr<coal::ComputeCollision>> cached;
  for (const Pair& p : w.pairs)
    cached.push_back(std::make_unique<coal::ComputeCollision>(p.a.get(), p.b.get()));
  auto one_shot = [&](const Pair& p) {
    result.clear();
    return coal::collide(p.a.get(), p.pose_a, p.b.get(), p.pose_b, request, result);
  };
  auto functor = [&](std::size_t i) {
    result.clear();
    const Pair& p = w.pairs[i];
    return (*cached[i])(p.pose_a, p.pose_b, request, result);
  };
  std::vector<double> one, two;
  for (std::size_t i = 0; i < w.pairs.size(); ++i) {
    one_shot(w.pairs[i]);
    contact_values(result, one);
    functor(i);
    contact_values(result, two);
  }
  // The depth is read inside the timed loop, as a user of the contact would.
  auto depth = [&] { return result.isCollision() ? result.getContact(0).penetration_depth : 0.0; };
  double ns_one = best_ns([&] { for (const Pair& p : w.pairs) { one_shot(p); keep(depth()); } },
                          w.pairs.size(), rounds);
  double ns_two = best_ns(
      [&] { for (std::size_t i = 0; i < w.pairs.size(); ++i) { functor(i); keep(depth()); } },
      w.pairs.size(), rounds);
  emit(out, w, "contact", "coal", ns_one, one);
  emit(out, w, "contact", "coal_cached", ns_two, two);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: coal_driver PAIRS_FILE ANSWERS_FILE [ROUNDS]\n");
    return 2;
  }
  int rounds = argc == 4 ? std::atoi(argv[3]) : 30;
  if (rounds < 1) {
    std::fprintf(stderr, "coal_driver: ROUNDS must be a positive integer\n");
    return 2;
  }
  try {
    std::vector<Workload> workloads = read_pairs(argv[1]);
    std::ofstream out(argv[2]);
    if (!out) throw std::runtime_error(std::string("cannot write ") + argv[2]);
    out.precision(17);
    for (const Workload& w : workloads) {
      intersects(out, w, rounds);
      distance(out, w, rounds);
      contact(out, w, rounds);
      std::fprintf(stderr, "coal: %s done\n", w.name.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "coal_driver: %s\n", e.what());
    return 1;
  }
  return 0;
}
