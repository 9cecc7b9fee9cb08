// Two unit squares side by side; the right one's curve loop runs
// clockwise, so Gmsh writes its cells the other way round.
lc = 0.5;
Point(1) = {0, 0, 0, lc};
Point(2) = {1, 0, 0, lc};
Point(3) = {2, 0, 0, lc};
Point(4) = {0, 1, 0, lc};
Point(5) = {1, 1, 0, lc};
Point(6) = {2, 1, 0, lc};
Line(1) = {1, 2};
Line(2) = {2, 5};
Line(3) = {5, 4};
Line(4) = {4, 1};
Line(5) = {2, 3};
Line(6) = {3, 6};
Line(7) = {6, 5};
Curve Loop(1) = {1, 2, 3, 4};
Curve Loop(2) = {-7, -6, -5, 2};
Plane Surface(1) = {1};
Plane Surface(2) = {2};
Physical Curve("left") = {4};
Physical Surface("plate") = {1, 2};
