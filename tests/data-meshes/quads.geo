// A 3 x 2 rectangle of quadrilaterals, off the origin.
Point(1) = {5, 5, 0, 1};
Point(2) = {8, 5, 0, 1};
Point(3) = {8, 7, 0, 1};
Point(4) = {5, 7, 0, 1};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve {1, 3} = 4;
Transfinite Curve {2, 4} = 3;
Transfinite Surface {1};
Recombine Surface {1};
