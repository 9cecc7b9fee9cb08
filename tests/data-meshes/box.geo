// The surface of a unit cube: a mesh of six faces, not of a plane.
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 1, 1, 1};
MeshSize{:} = 1;
