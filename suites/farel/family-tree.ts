/**
 * FaRel's family trees. Every statement says "A is B's parent". Person 0 is
 * the one every question is about. Length 1 gives person 0 a child and a
 * parent; each further length gives every branch one more generation (a
 * child at its end) and adds a new top ancestor above the previous one.
 *
 * A branch is a line of descent from one of person 0's ancestors (`up`
 * generations above person 0) running `down` generations down; in a tree of
 * length L every branch has up + down = L, and its end is the person whose
 * relationship to person 0 is one class of length L.
 */

export interface RelationClass {
  /** The class name as the options show it: `niece or nephew`, `1st cousin`… */
  name: string
  /** The relationship's length: up + down. */
  length: number
  /** Position among the classes of its length (branch order: child first, the top ancestor last). */
  rank: number
  /** Generations from person 0 up to the common ancestor. */
  up: number
  /** Generations from that ancestor down to the person. */
  down: number
  /** The person of the tree of this length whose relationship to person 0 this class names. */
  person: number
}

export interface FamilyTree {
  length: number
  /** People are numbered 0…people-1, in the order the tree grows. */
  people: number
  /** `[parent, child]`: "parent is child's parent", in the order the tree grows. */
  statements: Array<readonly [parent: number, child: number]>
  /** The classes of this length, in branch order (the order of the options before any shuffle). */
  classes: RelationClass[]
}

/** The largest length whose people always get distinct names: 91 people, and 100 names per gender. */
export const MAX_LENGTH = 12

/** The trees of lengths 1…maxLength, each grown from the previous one. */
export function familyTrees(maxLength: number): FamilyTree[] {
  if (!Number.isInteger(maxLength) || maxLength < 1)
    throw new Error(`A FaRel length is a whole number of at least 1, not ${maxLength}.`)
  const statements: Array<readonly [number, number]> = [
    [0, 1],
    [2, 0],
  ]
  // The end of each branch; branch r starts at the ancestor r generations above person 0.
  const ends = [1, 2]
  let next = 3
  const trees: FamilyTree[] = []
  for (let length = 1; length <= maxLength; length++) {
    if (length > 1) {
      const top = ends[ends.length - 1]!
      for (let r = 0; r < ends.length; r++) {
        statements.push([ends[r]!, next])
        ends[r] = next++
      }
      statements.push([next, top])
      ends.push(next++)
    }
    const classes = ends.map((person, up) => {
      const down = length - up
      return { name: relationName(up, down), length, rank: up, up, down, person }
    })
    trees.push({ length, people: next, statements: [...statements], classes })
  }
  return trees
}

/** The tree of one length. */
export function familyTree(length: number): FamilyTree {
  return familyTrees(length)[length - 1]!
}

/** Every class of lengths 1…maxLength, shortest first: the columns of FaRel-maxLength. */
export function relationClasses(maxLength: number): RelationClass[] {
  return familyTrees(maxLength).flatMap((tree) => tree.classes)
}

/**
 * What someone `down` generations below person 0's ancestor `up` generations
 * up is to person 0, in the original's words ("great grandchild",
 * "grand-niece or grand-nephew", "1st cousin 1x removed"…).
 *
 * Where this deviates from the original farel-bench: from length 5 on, the
 * original calls two different classes the same "Nth cousin Kx removed" (the
 * child of a 1st cousin and a parent's 1st cousin are both "1st cousin 1x
 * removed"), so the options list a name twice, the correct answer is always
 * the first of the two, and the two classes are scored as one. Here a
 * removed cousin says which way it is removed: "(younger generation)" when
 * the person is below person 0's generation, "(older generation)" when
 * above. Ordinals past 3rd are also written properly (21st, not 21th). Up
 * to length 4 the names are the original's, word for word.
 */
export function relationName(up: number, down: number): string {
  if (up === 0) return grand(down - 1, 'child')
  if (down === 0) return grand(up - 1, 'parent')
  if (up === 1) return down === 1 ? 'sibling' : `${grand(down - 2, 'niece')} or ${grand(down - 2, 'nephew')}`
  if (down === 1) return `${grand(up - 2, 'aunt')} or ${grand(up - 2, 'uncle')}`
  const cousin = `${ordinal(Math.min(up, down) - 1)} cousin`
  const removed = Math.abs(up - down)
  if (removed === 0) return cousin
  return `${cousin} ${removed}x removed (${down > up ? 'younger' : 'older'} generation)`
}

/** `relation`, `grandrelation`, `great grandrelation`…, then `3rd great grandrelation`; aunts, uncles, nieces and nephews take a hyphen. */
function grand(level: number, relation: string): string {
  if (level === 0) return relation
  const hyphen = ['aunt', 'uncle', 'niece', 'nephew'].includes(relation) ? '-' : ''
  if (level < 4) return `${'great '.repeat(level - 1)}grand${hyphen}${relation}`
  return `${ordinal(level - 1)} great grand${hyphen}${relation}`
}

function ordinal(n: number): string {
  const tens = n % 100
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th')
  return `${n}${suffix}`
}
