#pragma once
// Embree 3 as a speed peer for drape's AABB tree: a triangle scene over a
// TriangleMesh (float, as Embree is), closest hit through rtcIntersect1 and
// closest point through rtcPointQuery with a user callback that runs drape's
// double closest_point_on_triangle. Only compiled with DRAPE_HAVE_EMBREE.

#ifdef DRAPE_HAVE_EMBREE

#include <embree3/rtcore.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/triangle_queries.h"

namespace drape::peer {

class EmbreeScene {
 public:
  /// \param threads Embree's build threads (0 = all).
  EmbreeScene(const TriangleMesh& mesh, int threads = 0) : mesh_(mesh) {
    const std::string cfg = threads > 0 ? "threads=" + std::to_string(threads) : "";
    device_ = rtcNewDevice(cfg.empty() ? nullptr : cfg.c_str());
    if (!device_) throw std::runtime_error("Embree: rtcNewDevice failed");
    scene_ = rtcNewScene(device_);
    RTCGeometry g = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
    // Embree's own buffers carry the 16 bytes of padding its SIMD loads need.
    auto* v = static_cast<float*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                                          3 * sizeof(float), mesh.vertex_count()));
    for (std::size_t i = 0; i < mesh.vertex_count(); ++i)
      for (int k = 0; k < 3; ++k) v[3 * i + k] = static_cast<float>(mesh.positions[i][k]);
    auto* ix = static_cast<unsigned*>(rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                                              3 * sizeof(unsigned), mesh.face_count()));
    for (std::size_t f = 0; f < mesh.face_count(); ++f)
      for (int k = 0; k < 3; ++k) ix[3 * f + k] = static_cast<unsigned>(mesh.faces[f][k]);
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene_, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene_);
  }
  ~EmbreeScene() {
    rtcReleaseScene(scene_);
    rtcReleaseDevice(device_);
  }
  EmbreeScene(const EmbreeScene&) = delete;
  EmbreeScene& operator=(const EmbreeScene&) = delete;

  /// Closest hit (face, t) or nullopt.
  std::optional<RayHit> intersect(const Ray& r) const {
    RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    RTCRayHit rh;
    rh.ray.org_x = static_cast<float>(r.origin.x);
    rh.ray.org_y = static_cast<float>(r.origin.y);
    rh.ray.org_z = static_cast<float>(r.origin.z);
    rh.ray.dir_x = static_cast<float>(r.direction.x);
    rh.ray.dir_y = static_cast<float>(r.direction.y);
    rh.ray.dir_z = static_cast<float>(r.direction.z);
    rh.ray.tnear = static_cast<float>(r.t_min);
    rh.ray.tfar = std::isinf(r.t_max) ? std::numeric_limits<float>::infinity() : static_cast<float>(r.t_max);
    rh.ray.time = 0;
    rh.ray.mask = ~0u;
    rh.ray.id = 0;
    rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene_, &ctx, &rh);
    if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) return std::nullopt;
    return RayHit{static_cast<int>(rh.hit.primID), rh.ray.tfar, rh.hit.u, rh.hit.v};
  }

  struct Closest {
    int face = -1;
    double distance = std::numeric_limits<double>::infinity();
  };
  /// Closest point through rtcPointQuery; the callback shrinks the query radius.
  Closest closest_point(const Vec3& p) const {
    RTCPointQuery q;
    q.x = static_cast<float>(p.x);
    q.y = static_cast<float>(p.y);
    q.z = static_cast<float>(p.z);
    q.time = 0;
    q.radius = std::numeric_limits<float>::infinity();
    RTCPointQueryContext ctx;
    rtcInitPointQueryContext(&ctx);
    Query data{&mesh_, p, {}};
    rtcPointQuery(scene_, &q, &ctx, &EmbreeScene::callback, &data);
    data.best.distance = std::sqrt(data.best.distance);
    return data.best;
  }

 private:
  struct Query {
    const TriangleMesh* mesh;
    Vec3 p;
    Closest best;  // distance holds the squared distance during the query
  };
  static bool callback(RTCPointQueryFunctionArguments* args) {
    auto* d = static_cast<Query*>(args->userPtr);
    const Triangle& t = d->mesh->faces[args->primID];
    const auto& x = d->mesh->positions;
    const ClosestPoint cp = closest_point_on_triangle(d->p, x[t[0]], x[t[1]], x[t[2]]);
    const double d2 = squared_norm(cp.point - d->p);
    if (d2 < d->best.distance) {
      d->best.distance = d2;
      d->best.face = static_cast<int>(args->primID);
      // Shrink the float radius conservatively (never below the true distance).
      args->query->radius =
          std::nextafter(static_cast<float>(std::sqrt(d2)), std::numeric_limits<float>::infinity());
      return true;
    }
    return false;
  }
  const TriangleMesh& mesh_;
  RTCDevice device_ = nullptr;
  RTCScene scene_ = nullptr;
};

}  // namespace drape::peer

#endif  // DRAPE_HAVE_EMBREE
