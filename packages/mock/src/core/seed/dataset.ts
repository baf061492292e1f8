/**
 * The data a seed generates, written as fixtures so that it is created through the API like
 * a test's own: three campaigns (two active, one draft) with their leads, and leads in no
 * campaign. Names and companies come from the seeded random source.
 */
import type { Sequence } from '../api-types.ts';
import type { LeadFixture, OcsMockFixtures } from '../options.ts';
import { companies, firstNames, lastNames, titles } from './names.ts';
import type { SeededRandom } from './random.ts';

/** Email, profile view, connection request, then a message or a follow-up email; A and B arms. */
function foundersSequence(): Sequence {
  const arm = (first: number, subject: string): Sequence['variation_a'] => [
    { id: first, type: 'email', subject, content: 'Hi {first_name},\n\nWorth a call about {company}?', delay: 0 },
    { id: first + 1, type: 'view_profile', delay: 1 },
    { id: first + 2, type: 'linkedin_connection', message: 'Hi {first_name}, happy to connect.', delay: 1 },
    {
      id: first + 3,
      type: 'conditional',
      delay: 3,
      branches: {
        yes: [{ id: first + 4, type: 'linkedin_message', message: 'Thanks for connecting, {first_name}.', delay: 1 }],
        no: [
          { id: first + 5, type: 'email', subject: `Re: ${subject}`, content: 'Following up, {first_name}.', delay: 2 },
        ],
      },
    },
  ];
  return {
    variation_a: arm(1, '{first_name}, quick question about {company}'),
    variation_b: arm(7, 'An idea for the {company} pipeline'),
  };
}

function linkedinSequence(): Sequence {
  return {
    variation_a: [
      { id: 1, type: 'view_profile', delay: 0 },
      { id: 2, type: 'linkedin_connection', message: 'Hi {first_name}, I work with teams like {company}.', delay: 1 },
      {
        id: 3,
        type: 'conditional',
        delay: 3,
        branches: {
          yes: [{ id: 4, type: 'linkedin_message', message: 'Thanks, {first_name}. Open to a chat?', delay: 1 }],
          no: [],
        },
      },
    ],
  };
}

function emailSequence(): Sequence {
  return {
    variation_a: [
      {
        id: 1,
        type: 'email',
        subject: 'Closing the books faster at {company}',
        content: 'Hi {first_name}, ...',
        delay: 0,
      },
      { id: 2, type: 'email', subject: 'Re: closing the books', content: 'Following up, {first_name}.', delay: 3 },
    ],
  };
}

/** `count` distinct leads drawn from the word lists. */
function leads(random: SeededRandom, count: number, taken: Set<string>): LeadFixture[] {
  const result: LeadFixture[] = [];
  while (result.length < count) {
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    const company = random.pick(companies);
    const email = `${first}.${last}@${company.domain}`.toLowerCase();
    if (taken.has(email)) continue;
    taken.add(email);
    result.push({
      email,
      first_name: first,
      last_name: last,
      company: company.name,
      title: random.pick(titles),
      industry: company.industry,
      website: `https://${company.domain}`,
      linkedin_profile: `https://www.linkedin.com/in/${first}-${last}-${random.base62(4)}`.toLowerCase(),
      employee_count: 20 + random.int(2000),
    });
  }
  return result;
}

/** 30 leads: 12 in "Q4 Founders Outreach", 8 in "EMEA Expansion", 4 in the draft, 6 in none. */
export function seededFixtures(random: SeededRandom): OcsMockFixtures {
  const taken = new Set<string>();
  return {
    campaigns: [
      {
        name: 'Q4 Founders Outreach',
        description: 'Founders of seed to Series B companies, email then LinkedIn.',
        sequence: foundersSequence(),
        leads: leads(random, 12, taken),
        activate: true,
      },
      {
        name: 'EMEA Expansion',
        description: 'Revenue leaders in EMEA, on LinkedIn.',
        sequence: linkedinSequence(),
        leads: leads(random, 8, taken),
        activate: true,
      },
      {
        name: 'Fintech CFOs',
        description: 'Draft: finance leaders at fintech companies.',
        sequence: emailSequence(),
        leads: leads(random, 4, taken),
      },
    ],
    leads: leads(random, 6, taken),
  };
}
