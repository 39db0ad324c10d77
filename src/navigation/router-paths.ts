import { expandPattern, type RouteDef } from '../../schema/routes';

type Shape = ReturnType<typeof expandPattern>[number];

/** Our pattern syntax → TanStack's: `:x` → `$x`, the optional last `:x?` → `{-$x}`, `e:x` → `e{$x}`. */
export function toRouterPath(shape: Shape, optionalParam: string | null): string {
  const parts = shape.map((segment) => {
    if (segment.kind === 'literal') return segment.text;
    if (segment.name === optionalParam) return `{-$${segment.name}}`;
    return segment.prefix ? `${segment.prefix}{$${segment.name}}` : `$${segment.name}`;
  });
  return '/' + parts.join('/');
}

/**
 * The TanStack paths of one table entry: an optional trailing param stays one path (the router
 * handles it); an optional literal segment (`shared?`) becomes two paths.
 */
export function routerPaths(def: RouteDef): string[] {
  const optionalParam = /:([A-Za-z]+)\?$/.exec(def.path)?.[1] ?? null;
  const pattern = optionalParam ? def.path.replace(/\?$/, '') : def.path;
  return expandPattern(pattern).map((shape) => toRouterPath(shape, optionalParam));
}
